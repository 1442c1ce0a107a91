// Package fixed is the fixed twin of kubernetes125676: buffers whose
// capacity exceeds the default maximum request body size are not returned
// to the pool (kubernetes/kubernetes#125676).
package fixed

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

var buffers = BufferProvider{p: new(sync.Pool)}

type buffer struct {
	bytes.Buffer
}

type BufferProvider struct {
	p *sync.Pool
}

func (b *BufferProvider) Get() *buffer {
	if buf, ok := b.p.Get().(*buffer); ok {
		return buf
	}
	return &buffer{}
}

func (b *BufferProvider) Put(buf *buffer) {
	if buf.Cap() > 3*1024*1024 /* default MaxRequestBodyBytes */ {
		// A buffer grown by one large list would otherwise stay in the
		// pool and make every later small encode hold that much memory.
		return
	}
	buf.Reset()
	b.p.Put(buf)
}

type Encoder struct{}

// Encode writes obj to w through a pooled buffer, so that nothing reaches w
// if encoding fails half way.
func (Encoder) Encode(obj any, w io.Writer) error {
	buf := buffers.Get()
	defer buffers.Put(buf)
	if err := json.NewEncoder(&buf.Buffer).Encode(obj); err != nil {
		return err
	}
	_, err := io.Copy(w, &buf.Buffer)
	return err
}

// EncodeList encodes every item of a list into one buffer; a large list
// grows the buffer to its whole encoded size.
func (Encoder) EncodeList(items []any, w io.Writer) error {
	buf := buffers.Get()
	defer buffers.Put(buf)
	for _, it := range items {
		if err := json.NewEncoder(&buf.Buffer).Encode(it); err != nil {
			return err
		}
	}
	_, err := buf.WriteTo(w)
	return err
}
