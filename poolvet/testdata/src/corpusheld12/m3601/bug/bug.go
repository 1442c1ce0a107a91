// Package bug reproduces the shape of m3db/m3#601
// (https://github.com/m3db/m3/pull/601, "Fix a double free in
// client.WriteTagged"): writeAttemptWithRLock got a tag encoder from its
// pool and deferred its Finalize (which puts it back), but it also handed
// the encoder to the pooled writeState, whose close finalizes it again when
// the last reference is dropped. Every tagged write put the encoder back
// twice: once on return, once when the state was released (on the error
// path inside the function, on success later in the caller).
//
// Check: doubleput (deferred Finalize of an object also stored in a
// ref-counted state whose release finalizes it). The report is expected at
// the explicit release that precedes a return under the deferred Finalize,
// and at the caller's release of the returned state.
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

type tagEncoder struct {
	buf []byte
}

const maxEncoderCap = 64 << 10

var tagEncoderPool = sync.Pool{New: func() any { return &tagEncoder{} }}

func getTagEncoder() *tagEncoder { return tagEncoderPool.Get().(*tagEncoder) }

func (e *tagEncoder) Encode(tags []string) error {
	for _, t := range tags {
		if t == "" {
			return errors.New("empty tag")
		}
		e.buf = append(e.buf, t...)
	}
	return nil
}

// Finalize resets the encoder and returns it to its pool.
func (e *tagEncoder) Finalize() {
	if cap(e.buf) > maxEncoderCap {
		return
	}
	e.buf = e.buf[:0]
	tagEncoderPool.Put(e)
}

type writeState struct {
	refs       int32
	encoded    []byte
	tagEncoder *tagEncoder
}

var writeStatePool = sync.Pool{New: func() any { return &writeState{} }}

func (w *writeState) incRef() { atomic.AddInt32(&w.refs, 1) }

func (w *writeState) decRef() {
	if atomic.AddInt32(&w.refs, -1) > 0 {
		return
	}
	w.close()
}

func (w *writeState) close() {
	if enc := w.tagEncoder; enc != nil {
		enc.Finalize()
	}
	w.tagEncoder, w.encoded = nil, nil
	writeStatePool.Put(w)
}

type session struct {
	queues []chan *writeState
}

var errNoRoute = errors.New("no route for series")

func (s *session) writeAttempt(tags []string) (*writeState, error) {
	enc := getTagEncoder()
	defer enc.Finalize()
	if err := enc.Encode(tags); err != nil {
		return nil, err
	}

	state := writeStatePool.Get().(*writeState)
	state.incRef()
	state.encoded = enc.buf
	state.tagEncoder = enc

	if len(s.queues) == 0 {
		state.decRef() // want `doubleput`
		return nil, errNoRoute
	}
	return state, nil
}

// WriteTagged releases the state once the write is done.
func (s *session) WriteTagged(tags []string) error {
	state, err := s.writeAttempt(tags)
	if err != nil {
		return err
	}
	state.decRef() // want `doubleput`
	return nil
}
