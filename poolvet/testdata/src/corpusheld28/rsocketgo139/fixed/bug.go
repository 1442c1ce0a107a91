// Package bug reproduces the shape of rsocket/rsocket-go#139
// (https://github.com/rsocket/rsocket-go/pull/139, "Fixed frame double-release"):
// fixed twin. The request-response callback no longer caches the received
// frame, so neither stopWithError nor the finally hook releases it; the
// frame is owned by the sink and released exactly once by the consumer
// through the release function handed out with the value.
//
// Check: doubleput (none expected here).
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

// BlockUnsafe hands the value to the consumer together with the function
// that releases it; the consumer calls it once it no longer needs the value.
func (s *sink) BlockUnsafe() (any, func(), error) {
	s.mu.Lock()
	v, err := s.value, s.err
	s.value = nil
	s.mu.Unlock()
	if err != nil {
		TryRelease(v)
		return nil, func() {}, err
	}
	return v, func() { TryRelease(v) }, nil
}

// ---- socket ----

type callback interface {
	stopWithError(err error)
}

type requestResponseCallback struct {
	sink *sink
}

func (s requestResponseCallback) stopWithError(err error) {
	s.sink.Error(err)
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
		if t == signalCancel {
			_ = sid // a CANCEL frame would be sent here
		}
		// Unregisters handler w/sink (processor).
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
		// The sink owns the frame from now on; the consumer releases it.
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
