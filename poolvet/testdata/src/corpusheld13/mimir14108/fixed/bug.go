// Package fixed is grafana/mimir#14108 after the fix
// (https://github.com/grafana/mimir/pull/14108): WriteRequest.FreeBuffer
// drops its source holders once it has released them, so it is idempotent
// and a second call releases nothing.
package fixed

import (
	"errors"
	"sync"
)

type buffer struct {
	data []byte
}

var bufferPool = sync.Pool{New: func() any { return &buffer{data: make([]byte, 0, 4096)} }}

func getBuffer() *buffer {
	return bufferPool.Get().(*buffer)
}

// BufferHolder keeps the pooled buffer a message was unmarshalled from.
type BufferHolder struct {
	buffer *buffer
}

func (m *BufferHolder) SetBuffer(b *buffer) { m.buffer = b }

func (m *BufferHolder) FreeBuffer() {
	if m.buffer != nil {
		m.buffer.data = m.buffer.data[:0]
		bufferPool.Put(m.buffer)
		m.buffer = nil
	}
}

type WriteRequest struct {
	BufferHolder
	Series              []string
	sourceBufferHolders []BufferHolder
}

// AddSourceBufferHolder records a buffer the request's series point into.
func (m *WriteRequest) AddSourceBufferHolder(h *BufferHolder) {
	m.sourceBufferHolders = append(m.sourceBufferHolders, *h)
}

func (m *WriteRequest) FreeBuffer() {
	m.BufferHolder.FreeBuffer()
	for _, h := range m.sourceBufferHolders {
		h.FreeBuffer()
	}
	m.sourceBufferHolders = nil
}

var errEmpty = errors.New("empty request")

type ingester struct {
	appended int
}

func (i *ingester) Push(req *WriteRequest) error {
	defer req.FreeBuffer()
	if len(req.Series) == 0 {
		req.FreeBuffer()
		return errEmpty
	}
	i.appended += len(req.Series)
	return nil
}

func newRequest(series []string, parts int) *WriteRequest {
	req := &WriteRequest{Series: series}
	req.SetBuffer(getBuffer())
	for n := 0; n < parts; n++ {
		var h BufferHolder
		h.SetBuffer(getBuffer())
		req.AddSourceBufferHolder(&h)
	}
	return req
}
