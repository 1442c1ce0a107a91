// Package bug reproduces the shape of grafana/mimir#8082
// (https://github.com/grafana/mimir/pull/8082): the distributor
// decompresses Prometheus and OTLP request bodies into *bytes.Buffer taken
// from a shared sync.Pool and, when the request is done, puts every buffer
// back with no upper bound on its size. A few huge requests leave huge
// buffers in the pool; the PR adds a configurable maximum pooled size.
//
// Check: unbounded (growable *bytes.Buffer put back in a cleanup loop with
// no size comparison).
package bug

import (
	"bytes"
	"io"
	"sync"
)

var requestBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RequestBuffers tracks the pooled buffers one request used.
type RequestBuffers struct {
	buffers []*bytes.Buffer
}

// Get returns a reset buffer with at least size bytes of room.
func (rb *RequestBuffers) Get(size int) *bytes.Buffer {
	b := requestBufferPool.Get().(*bytes.Buffer)
	b.Reset()
	if size > 0 {
		b.Grow(size)
	}
	rb.buffers = append(rb.buffers, b)
	return b
}

// CleanUp gives all buffers of the request back to the pool.
func (rb *RequestBuffers) CleanUp() {
	for i, b := range rb.buffers {
		b.Reset()
		requestBufferPool.Put(b) // want `unbounded`
		rb.buffers[i] = nil
	}
	rb.buffers = rb.buffers[:0]
}

// decodeBody reads an (already decompressing) body into a pooled buffer.
func decodeBody(rb *RequestBuffers, body io.Reader, expectedSize int) ([]byte, error) {
	buf := rb.Get(expectedSize)
	if _, err := buf.ReadFrom(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// HandlePush decodes one push request and hands its bytes to push.
func HandlePush(body io.Reader, expectedSize int, push func([]byte) error) error {
	rb := &RequestBuffers{}
	defer rb.CleanUp()
	data, err := decodeBody(rb, body, expectedSize)
	if err != nil {
		return err
	}
	return push(data)
}
