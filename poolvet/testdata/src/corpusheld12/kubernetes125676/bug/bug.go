// Package bug reproduces the shape of kubernetes/kubernetes#125676
// (https://github.com/kubernetes/kubernetes/pull/125676): the apiserver's
// CBOR serializer borrowed *bytes.Buffer wrappers from a sync.Pool and put
// every one back after encoding. Small objects are encoded all the time and
// huge lists only now and then, but each pooled buffer eventually served a
// large list, so nearly every idle buffer kept a capacity far above what
// most encodes need. The fix drops buffers larger than the default maximum
// request body instead of pooling them.
// (The real provider reaches its sync.Pool through a one-method-pair
// interface used by tests; here it holds the *sync.Pool directly.)
//
// Check: unbounded (a growable buffer is put back with no size check)
package bug

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
	buf.Reset()
	b.p.Put(buf) // want `unbounded`
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
