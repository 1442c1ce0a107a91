// Package fixed is the fix of projectdiscovery/utils#709 (PR #708,
// https://github.com/projectdiscovery/utils/issues/709):
// FullResponseBytes returns a copy that outlives Close.
package fixed

import (
	"bytes"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 1<<20 {
		return
	}
	bufPool.Put(b)
}

type ResponseChain struct {
	fullResponse *bytes.Buffer
}

func NewResponseChain() *ResponseChain {
	return &ResponseChain{fullResponse: getBuffer()}
}

func (r *ResponseChain) FullResponseBytes() []byte {
	return bytes.Clone(r.fullResponse.Bytes())
}

func (r *ResponseChain) Close() {
	putBuffer(r.fullResponse)
}

func Fetch(raw string) []byte {
	rc := NewResponseChain()
	rc.fullResponse.WriteString(raw)
	data := rc.FullResponseBytes()
	rc.Close()
	return data
}
