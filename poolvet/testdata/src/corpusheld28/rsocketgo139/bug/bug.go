// Package bug reproduces the shape of rsocket/rsocket-go#139
// (https://github.com/rsocket/rsocket-go/pull/139, "Fixed frame double-release"):
// for a request-response stream the duplex connection remembers the received
// PAYLOAD frame (a pooled, releasable buffer) in the callback's cache field
// and releases it in two places: in the processor's finally hook registered
// by RequestResponse, and again in requestResponseCallback.stopWithError,
// which first fails the sink (which runs that very finally hook) and then
// releases the cache itself. When the connection is torn down after the
// response arrived (destroyHandler / killCallback), the same frame goes back
// to the frame pool twice and is later handed to two readers ("frame has been
// released!" panics in production). The fix drops the cache: the frame is
// released once, by whoever consumes the response.
//
// Check: doubleput (reported at common.TryRelease(s.cache) in stopWithError,
// the second release that follows the sink's finally hook).
package bug

import (
	"errors"
	"sync"
)

// ---- framing: pooled buffered frames ----

type bufferedFrame struct {
	buf []byte
	sid uint32
}

var framePool = sync.Pool{
	New: func() any { return &bufferedFrame{buf: make([]byte, 0, 256)} },
}

func newBufferedFrame(sid uint32, b []byte) *bufferedFrame {
	f := framePool.Get().(*bufferedFrame)
	f.sid = sid
	f.buf = append(f.buf[:0], b...)
	return f
}

// Release returns the frame to the pool.
func (f *bufferedFrame) Release() {
	f.buf = f.buf[:0]
	f.sid = 0
	framePool.Put(f)
}

// ---- common ----

type Releasable interface{ Release() }

// TryRelease releases v if it is releasable.
func TryRelease(v any) {
	if r, ok := v.(Releasable); ok {
		r.Release()
	}
}

// ---- mono processor ----

type signalType int

const (
	signalSuccess signalType = iota
	signalError
	signalCancel
)

type sink struct {
	mu       sync.Mutex
	done     bool
	value    any
	err      error
	onFinish func(signalType)
}

func (s *sink) finish(t signalType) {
	s.mu.Lock()
	if s.done {
		s.mu.Unlock()
		return
	}
	s.done = true
	fn := s.onFinish
	s.mu.Unlock()
	if fn != nil {
		fn(t)
	}
}

func (s *sink) Success(v any) { s.value = v; s.finish(signalSuccess) }

func (s *sink) Error(err error) { s.err = err; s.finish(signalError) }

// ---- socket ----

type callback interface {
	stopWithError(err error)
}

type requestResponseCallback struct {
	sink  *sink
	cache any
}

func (s requestResponseCallback) stopWithError(err error) {
	s.sink.Error(err)
	TryRelease(s.cache) // want `doubleput`
}

var errSocketClosed = errors.New("socket closed")

type DuplexConnection struct {
	mu       sync.Mutex
	messages map[uint32]callback
	nextID   uint32
}

func NewDuplexConnection() *DuplexConnection {
	return &DuplexConnection{messages: make(map[uint32]callback)}
}

func (dc *DuplexConnection) register(sid uint32, cb callback) {
	dc.mu.Lock()
	dc.messages[sid] = cb
	dc.mu.Unlock()
}

func (dc *DuplexConnection) unregister(sid uint32) {
	dc.mu.Lock()
	delete(dc.messages, sid)
	dc.mu.Unlock()
}

// RequestResponse starts a request-response stream and returns its sink.
func (dc *DuplexConnection) RequestResponse() (uint32, *sink) {
	dc.mu.Lock()
	dc.nextID += 2
	sid := dc.nextID
	dc.mu.Unlock()

	handler := &requestResponseCallback{}
	s := &sink{}
	s.onFinish = func(t signalType) {
		TryRelease(handler.cache)
		if t == signalCancel {
			_ = sid // a CANCEL frame would be sent here
		}
		// Unregister handler w/sink (processor).
		dc.unregister(sid)
	}
	handler.sink = s
	dc.register(sid, handler)
	return sid, s
}

// onFramePayload dispatches a received PAYLOAD frame to its stream.
func (dc *DuplexConnection) onFramePayload(sid uint32, data []byte) {
	next := newBufferedFrame(sid, data)
	dc.mu.Lock()
	v, ok := dc.messages[sid]
	dc.mu.Unlock()
	if !ok {
		TryRelease(next)
		return
	}
	switch handler := v.(type) {
	case *requestResponseCallback:
		handler.cache = next
		handler.sink.Success(next)
	}
}

// destroyHandler fails every pending stream when the connection closes.
func (dc *DuplexConnection) destroyHandler(err error) {
	var callbacks []callback
	dc.mu.Lock()
	for _, cb := range dc.messages {
		callbacks = append(callbacks, cb)
	}
	dc.mu.Unlock()
	for _, next := range callbacks {
		next.stopWithError(err)
	}
}

// Close tears the connection down.
func (dc *DuplexConnection) Close() error {
	dc.destroyHandler(errSocketClosed)
	return nil
}
