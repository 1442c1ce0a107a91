// Package bug reproduces the shape of projectdiscovery/utils#709, fixed by
// #708 (https://github.com/projectdiscovery/utils/issues/709):
// ResponseChain.FullResponseBytes returned bytes backed by a pooled buffer,
// which Close gave back to the pool; callers that read the bytes after
// Close saw them overwritten by another response.
//
// Check: useafterput (an alias from a method, used after Close put the
// buffer back).
package bug

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
	return r.fullResponse.Bytes()
}

func (r *ResponseChain) Close() {
	putBuffer(r.fullResponse)
}

func Fetch(raw string) []byte {
	rc := NewResponseChain()
	rc.fullResponse.WriteString(raw)
	data := rc.FullResponseBytes()
	rc.Close()
	return data // want `used after|shares memory|useafterput`
}
