package useafterput

import "sync"

// A pool behind an interface of the package: the call goes through the
// interface, and the one implementation puts the frame, so a use after it
// is a use after a Put (uber/tchannel-go#420).
type relayFrame struct {
	id      uint32
	payload []byte
}

type relayFramePool interface {
	Get() *relayFrame
	Release(f *relayFrame)
}

type syncFrames struct{ p *sync.Pool }

func (s syncFrames) Get() *relayFrame { return s.p.Get().(*relayFrame) } // want Get:`pool:get`

func (s syncFrames) Release(f *relayFrame) { // want Release:`pool:put\(1\)`
	f.id, f.payload = 0, f.payload[:0]
	s.p.Put(f)
}

type relayConn struct {
	frames relayFramePool
	done   func(uint32)
}

func (c *relayConn) finish(f *relayFrame) {
	c.frames.Release(f)
	c.done(f.id) // want `f is used after it was put back into the pool`
}

// The fix reads the id first.
func (c *relayConn) finishFixed(f *relayFrame) {
	id := f.id
	c.frames.Release(f)
	c.done(id)
}

// An interface with an implementation that keeps the object (a recorder in
// tests): the call may not put it, so no report.
type frameSink interface {
	Release(f *relayFrame)
}

type recordingSink struct{ got []*relayFrame }

func (r *recordingSink) Release(f *relayFrame) { r.got = append(r.got, f) }

type poolSink struct{ p *sync.Pool }

func (s poolSink) Release(f *relayFrame) { s.p.Put(f) } // want Release:`pool:put\(1\)`

func finishInto(sink frameSink, f *relayFrame, done func(uint32)) {
	sink.Release(f)
	done(f.id)
}
