package doubleput

import (
	"bytes"
	"errors"
	"sync"

	"github.com/poolkit/pool/bytepool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func twice() {
	b := bufPool.Get().(*bytes.Buffer)
	bufPool.Put(b)
	bufPool.Put(b) // want `b is put into the pool twice \(first at line 15\)`
}

// Put in the loop body and again after the loop.
func loopThenAfter(n int) {
	b := bufPool.Get().(*bytes.Buffer)
	for i := 0; i < n; i++ {
		if i == 3 {
			bufPool.Put(b)
			break
		}
	}
	bufPool.Put(b) // want `b is put into the pool twice \(first at line 24\)`
}

// Put in a loop body of an object got outside the loop.
func inLoop(n int) {
	b := bufPool.Get().(*bytes.Buffer)
	for i := 0; i < n; i++ {
		b.Reset()
		bufPool.Put(b) // want `b is put into the pool again on a later iteration`
	}
}

var errRetry = errors.New("retry")

// A retry path puts the buffer and tries again with the same one.
func retry(send func(*bytes.Buffer) error) error {
	b := bufPool.Get().(*bytes.Buffer)
	for attempt := 0; attempt < 3; attempt++ {
		err := send(b)
		if err == errRetry {
			bufPool.Put(b)
			continue
		}
		bufPool.Put(b) // want `b is put into the pool twice \(first at line 48\)`
		return err
	}
	return errRetry
}

// An explicit Put on top of a deferred one.
func deferredAndExplicit(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b)
	if fail {
		bufPool.Put(b) // want `b is put into the pool here and again by the deferred Put at line 60`
		return
	}
	b.WriteString("ok")
}

// The deferred closure sees nil after the explicit Put: fine.
func deferredClosureNil(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if b != nil {
			bufPool.Put(b)
		}
	}()
	if fail {
		bufPool.Put(b)
		b = nil
		return
	}
	b.WriteString("ok")
}

// Each branch puts once: fine.
func branches(fail bool) {
	b := bufPool.Get().(*bytes.Buffer)
	if fail {
		bufPool.Put(b)
		return
	}
	b.WriteString("ok")
	bufPool.Put(b)
}

// A new object each iteration: fine.
func fresh(n int) {
	for i := 0; i < n; i++ {
		b := bytepool.Get(64)
		bytepool.Put(b)
	}
}

// bytepool Buffer freed twice.
func freeTwice() {
	b := bytepool.GetBuffer()
	b.Free()
	b.Free() // want `b is put into the pool twice`
}

// Deferred in a loop with an object from outside the loop.
func deferInLoop(n int) {
	b := bufPool.Get().(*bytes.Buffer)
	for i := 0; i < n; i++ {
		defer bufPool.Put(b) // want `b is deferred for Put on every iteration`
	}
}

// A Buffer of the caller's own (the zero value) gives back only its
// storage on Free and may be written and freed again, as Free's doc says.
func ownBufferReused(lines []string) {
	var b bytepool.Buffer
	for _, l := range lines {
		b.Write([]byte(l))
		b.Free()
	}
	b.Free()
}

type logger struct{ buf bytepool.Buffer }

// The same with a Buffer held in a struct.
func (l *logger) line(s string) {
	l.buf.Write([]byte(s))
	l.buf.Free()
	l.buf.Free()
}
