package doubleput

import (
	"errors"
	"sync"
)

// A goroutine that puts the object back itself, through a once-guarded
// finalizer, and the function that started it puts it again on an error
// path (langwatch/tasks#585).

type chunk struct{ err error }

type stream struct{ ch chan chunk }

var streamPool = sync.Pool{New: func() any { return &stream{ch: make(chan chunk, 4)} }}

func releaseStream(s *stream) { streamPool.Put(s) }

func open(produce func(chan<- chunk)) error {
	s := streamPool.Get().(*stream)
	var once sync.Once
	finalize := func() { once.Do(func() { releaseStream(s) }) }
	go func() {
		defer finalize()
		produce(s.ch)
	}()
	first := <-s.ch
	if first.err != nil {
		releaseStream(s) // want `s is put into the pool here, and the goroutine started at line 24 puts it back too`
		return first.err
	}
	return nil
}

// The error path calls the same once-guarded finalizer: silent.
func openOnce(produce func(chan<- chunk)) error {
	s := streamPool.Get().(*stream)
	var once sync.Once
	finalize := func() { once.Do(func() { releaseStream(s) }) }
	go func() {
		defer finalize()
		produce(s.ch)
	}()
	first := <-s.ch
	if first.err != nil {
		finalize()
		return errors.Join(first.err)
	}
	return nil
}

// A deferred release, and a call that releases on some paths.
type conn struct{ buf []byte }

var connPool = sync.Pool{New: func() any { return new(conn) }}

func (c *conn) release() { c.buf = c.buf[:0]; connPool.Put(c) }

func check(c *conn) {
	if len(c.buf) == 0 {
		c.release()
	}
}

func serveConn() {
	c := connPool.Get().(*conn)
	defer c.release() // want `c may be put into the pool twice: the deferred Put runs after the call at line 69`
	check(c)
}
