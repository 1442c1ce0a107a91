// Package fixed follows the fix of grafana/mimir#8082
// (https://github.com/grafana/mimir/pull/8082): a maximum pooled buffer
// size (from -distributor.max-request-pool-buffer-size; here always set)
// and CleanUp drops buffers that grew past it instead of pooling them.
package fixed

import (
	"bytes"
	"io"
	"sync"
)

// maxRequestPoolBufferSize stands for the configured maximum.
var maxRequestPoolBufferSize = 1 << 20

var requestBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type RequestBuffers struct {
	buffers []*bytes.Buffer
}

func (rb *RequestBuffers) Get(size int) *bytes.Buffer {
	b := requestBufferPool.Get().(*bytes.Buffer)
	b.Reset()
	if size > 0 {
		b.Grow(size)
	}
	rb.buffers = append(rb.buffers, b)
	return b
}

func (rb *RequestBuffers) CleanUp() {
	for i, b := range rb.buffers {
		rb.buffers[i] = nil
		if b.Cap() > maxRequestPoolBufferSize {
			continue
		}
		b.Reset()
		requestBufferPool.Put(b)
	}
	rb.buffers = rb.buffers[:0]
}

func decodeBody(rb *RequestBuffers, body io.Reader, expectedSize int) ([]byte, error) {
	buf := rb.Get(expectedSize)
	if _, err := buf.ReadFrom(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func HandlePush(body io.Reader, expectedSize int, push func([]byte) error) error {
	rb := &RequestBuffers{}
	defer rb.CleanUp()
	data, err := decodeBody(rb, body, expectedSize)
	if err != nil {
		return err
	}
	return push(data)
}
