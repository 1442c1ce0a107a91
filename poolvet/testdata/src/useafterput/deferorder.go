package useafterput

import (
	"bytes"
	"io"
	"sync"
	"time"
)

var logPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Deferred calls run last-in first-out: the write runs after the Put.
func logLater(w io.Writer, s string) {
	b := logPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() { w.Write(b.Bytes()) }() // want `this deferred call uses b, but it runs after the deferred Put at line 17`
	defer logPool.Put(b)
	b.WriteString(s)
}

// The Put deferred first runs last: silent.
func logFirst(w io.Writer, s string) {
	b := logPool.Get().(*bytes.Buffer)
	b.Reset()
	defer logPool.Put(b)
	defer func() { w.Write(b.Bytes()) }()
	b.WriteString(s)
}

type latencyReq struct {
	start time.Time
	done  chan error
}

var latencyPool = sync.Pool{New: func() any { return &latencyReq{done: make(chan error, 1)} }}

// A func literal is named after its parent (waitReq$1); it is judged by
// what it calls, not by that name (tikv/pd#660).
func waitReq(r *latencyReq, observe func(time.Duration)) error {
	defer func() { observe(time.Since(r.start)) }() // want `this deferred call uses r, but it runs after the deferred Put at line 41`
	defer latencyPool.Put(r)
	return <-r.done
}

// A deferred literal that waits for other goroutines orders the use: silent.
func waitAll(r *latencyReq, wg *sync.WaitGroup) error {
	defer func() { wg.Wait(); _ = r.start }()
	defer latencyPool.Put(r)
	return <-r.done
}
