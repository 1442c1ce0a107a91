// Package bug reproduces the shape of grafana/mimir#14108
// (https://github.com/grafana/mimir/pull/14108, issue 3 of that PR):
// WriteRequest.FreeBuffer released the buffers of its source holders with
// `for _, h := range m.sourceBufferHolders { h.FreeBuffer() }`. The loop
// variable is a copy, so clearing the buffer inside FreeBuffer cleared only
// the copy: the request kept every source buffer, and a second FreeBuffer
// on the same request released them to the pool again. The PR calls this a
// latent defect (no production double call was confirmed); the caller below
// frees on an error path under a deferred free, which is the double call.
//
// Check: doubleput (a free method that puts buffers through value copies
// and so leaves them in the receiver, called twice; reported at the
// explicit call that runs while the deferred one is still pending).
package bug

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
}

var errEmpty = errors.New("empty request")

type ingester struct {
	appended int
}

func (i *ingester) Push(req *WriteRequest) error {
	defer req.FreeBuffer()
	if len(req.Series) == 0 {
		req.FreeBuffer() // want `doubleput`
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
