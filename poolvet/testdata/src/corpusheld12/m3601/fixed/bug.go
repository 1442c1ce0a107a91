// Package fixed is the fix of m3db/m3#601
// (https://github.com/m3db/m3/pull/601): the encoder is finalized by the
// function only when encoding fails; once it is handed to the writeState,
// the state's release is its only owner.
package fixed

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
	if err := enc.Encode(tags); err != nil {
		enc.Finalize()
		return nil, err
	}

	state := writeStatePool.Get().(*writeState)
	state.incRef()
	state.encoded = enc.buf
	state.tagEncoder = enc

	if len(s.queues) == 0 {
		state.decRef()
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
	state.decRef()
	return nil
}
