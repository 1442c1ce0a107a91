package noreset

import (
	"io"
	"sync"
	"time"
)

type frameEncoder struct {
	w   io.Writer
	seq uint32
}

func (e *frameEncoder) frame(p []byte) {
	e.seq++ // read before any write: the previous user's count
	e.w.Write(p)
}

var encPool sync.Pool

// The sequence number survives from the previous user (kettek/apng#13).
func encodeAll(w io.Writer, frames [][]byte) {
	e, _ := encPool.Get().(*frameEncoder)
	if e == nil {
		e = &frameEncoder{}
	}
	e.w = w
	for _, f := range frames {
		e.frame(f)
	}
	e.w = nil
	encPool.Put(e) // want `e goes back to the pool with field seq still set, and a user of the pool reads it before writing it \(stale.go:29\)`
}

var encPool2 sync.Pool

// Setting seq after Get: fine.
func encodeAllFixed(w io.Writer, frames [][]byte) {
	e, _ := encPool2.Get().(*frameEncoder)
	if e == nil {
		e = &frameEncoder{}
	}
	e.w, e.seq = w, 0
	for _, f := range frames {
		e.frame(f)
	}
	e.w = nil
	encPool2.Put(e)
}

var encPool3 sync.Pool

// Clearing seq before the Put: fine.
func encodeAllCleared(w io.Writer, frames [][]byte) {
	e, _ := encPool3.Get().(*frameEncoder)
	if e == nil {
		e = &frameEncoder{}
	}
	e.w = w
	for _, f := range frames {
		e.frame(f)
	}
	e.w, e.seq = nil, 0
	encPool3.Put(e)
}

type timings struct {
	lookup, connect time.Duration
}

var timingPool = sync.Pool{New: func() any { return new(timings) }}

func measure(t *timings, fail bool) {
	if fail {
		return
	}
	t.lookup = time.Millisecond
	t.connect = 2 * time.Millisecond
}

// A failed request reports the previous request's timings
// (easegress-io/easegress#614).
func request(fail bool, record func(timings)) {
	t := timingPool.Get().(*timings)
	measure(t, fail)
	record(*t)
	timingPool.Put(t) // want `t goes back to the pool with fields lookup and connect still set`
}

var timingPool2 = sync.Pool{New: func() any { return new(timings) }}

// Zeroed before the Put: fine.
func requestFixed(fail bool, record func(timings)) {
	t := timingPool2.Get().(*timings)
	measure(t, fail)
	record(*t)
	*t = timings{}
	timingPool2.Put(t)
}

type scratchBuf struct {
	buf  []byte
	size int
}

var scratchBufPool = sync.Pool{New: func() any { return new(scratchBuf) }}

// A slice field kept across uses is the point of pooling, and a read that
// only decides a branch is not a use of the old value: fine.
func fill(n int) int {
	s := scratchBufPool.Get().(*scratchBuf)
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	s.buf = s.buf[:n]
	if s.size != 0 {
		n++
	}
	s.size = n
	scratchBufPool.Put(s)
	return n
}

// Every field written after Get on every path: fine.
func overwrite(fail bool, record func(timings)) {
	t := timingPool.Get().(*timings)
	t.lookup, t.connect = 0, 0
	measure(t, fail)
	record(*t)
	timingPool.Put(t)
}

// setSeq sets the sequence number.
func (e *frameEncoder) setSeq(n uint32) { e.seq = n }

var encPool4 sync.Pool

// Clearing seq through a method given zero before the Put: fine
// (apache/arrow-go#864's ResizeNoShrink(0)).
func encodeAllClearedByCall(w io.Writer, frames [][]byte) {
	e, _ := encPool4.Get().(*frameEncoder)
	if e == nil {
		e = &frameEncoder{}
	}
	e.w = w
	for _, f := range frames {
		e.frame(f)
	}
	e.w = nil
	e.setSeq(0)
	encPool4.Put(e)
}
