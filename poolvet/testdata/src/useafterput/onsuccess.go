package useafterput

import (
	"errors"
	"sync"
)

// A relay hands a frame to a writer goroutine only when it returns a nil
// error; the caller puts the frame back when the error is not nil: no
// race (uber/tchannel-go#422).
type frame struct{ payload []byte }

var framePool = sync.Pool{New: func() any { return new(frame) }}

type relay struct {
	out   chan *frame
	known map[int]bool
}

func (r *relay) forward(id int, f *frame) error {
	if !r.known[id] {
		return errors.New("unknown id")
	}
	r.out <- f
	return nil
}

func (r *relay) relay(id int, f *frame) error {
	return r.forward(id, f)
}

func (r *relay) readOne(id int) {
	f := framePool.Get().(*frame)
	if err := r.relay(id, f); err != nil {
		framePool.Put(f)
	}
}

// Put whatever the outcome: races with the writer on success.
func (r *relay) readOneLeaky(id int) {
	f := framePool.Get().(*frame)
	r.relay(id, f)
	framePool.Put(f) // want `f is put back into the pool while the user that relay passes it on to`
}

// A function that hands off on the error path too.
func (r *relay) forwardAlways(f *frame) error {
	r.out <- f
	if len(f.payload) == 0 {
		return errors.New("empty")
	}
	return nil
}

func (r *relay) readAlways() {
	f := framePool.Get().(*frame)
	if err := r.forwardAlways(f); err != nil {
		framePool.Put(f) // want `f is put back into the pool while the user that forwardAlways passes it on to`
	}
}

// The error goes into a variable the closure shares with its function
// (minio/minio#16174's sendRecord): the test reads it back at once.
func (r *relay) sendAll(ids []int) error {
	var err error
	send := func(id int) bool {
		f := framePool.Get().(*frame)
		if err = r.relay(id, f); err != nil {
			framePool.Put(f)
			return false
		}
		return true
	}
	for _, id := range ids {
		if !send(id) {
			break
		}
	}
	return err
}

// The variable is stored again before the test: the test says nothing
// about the relay's outcome.
func (r *relay) sendReassigned(id int, check func() error) {
	var err error
	f := framePool.Get().(*frame)
	err = r.relay(id, f)
	err = check()
	if err != nil {
		framePool.Put(f) // want `f is put back into the pool while the user that relay passes it on to`
	}
}
