package useafterput

import "sync"

// An asynchronous writer: entries sent on w.ch belong to the writer
// goroutine, which puts them back into the pool when written. A use of the
// entry after the send races with the next Get (phuslu/log 46145e0).
type logEntry struct {
	buf []byte
}

var entries = sync.Pool{New: func() any { return new(logEntry) }}

type asyncWriter struct {
	ch    chan *logEntry
	acks  chan *logEntry
	write func([]byte)
}

func (w *asyncWriter) loop() {
	for e := range w.ch {
		w.write(e.buf)
		if cap(e.buf) <= 4096 {
			e.buf = e.buf[:0]
			entries.Put(e)
		}
	}
}

func (w *asyncWriter) Write(p []byte) (int, error) {
	e := entries.Get().(*logEntry)
	e.buf = append(e.buf[:0], p...)
	w.ch <- e
	return len(e.buf), nil // want `e is used after it was sent on w.ch, whose receiver puts it back into the pool \(line 25\)`
}

func (w *asyncWriter) TryWrite(p []byte) (int, error) {
	e := entries.Get().(*logEntry)
	e.buf = append(e.buf[:0], p...)
	select {
	case w.ch <- e:
		return len(e.buf), nil // want `e is used after it was sent on w.ch`
	default:
		n := len(e.buf) // not sent: still the caller's
		entries.Put(e)
		return n, nil
	}
}

// The fix takes the length before the send.
func (w *asyncWriter) WriteFixed(p []byte) (int, error) {
	e := entries.Get().(*logEntry)
	e.buf = append(e.buf[:0], p...)
	n := len(e.buf)
	w.ch <- e
	return n, nil
}

// A receiver that acknowledges on another channel first: the wait orders
// the use before its Put.
func (w *asyncWriter) ackLoop() {
	for e := range w.acks {
		w.write(e.buf)
		w.acks <- e
		entries.Put(<-w.acks)
	}
}

func (w *asyncWriter) WriteAcked(p []byte) int {
	e := entries.Get().(*logEntry)
	e.buf = append(e.buf[:0], p...)
	w.acks <- e
	<-w.acks
	return len(e.buf)
}

// A channel used as a free list: its receiver reuses what it gets and puts
// nothing, so a use after the send is no use after a Put.
type entryFreeList struct {
	free chan *logEntry
}

func (f *entryFreeList) get() *logEntry {
	select {
	case e := <-f.free:
		return e
	default:
		return new(logEntry)
	}
}

func (f *entryFreeList) put(e *logEntry) int {
	f.free <- e
	return len(e.buf)
}

// A pipelined client: the work item goes to a writer whose drain of
// abandoned items puts them, and the caller waits on the item's own
// channels (w.done, w.timer.C) before it reads it again. Reading the
// channels to wait on is the wait, not a use.
type pipeWork struct {
	done  chan struct{}
	timer *pipeTimer
	err   error
}

type pipeTimer struct{ C chan struct{} }

var pipeWorks = sync.Pool{New: func() any { return new(pipeWork) }}

type pipeConn struct{ chW chan *pipeWork }

func (c *pipeConn) retire() {
	for len(c.chW) > 0 {
		pipeWorks.Put(<-c.chW)
	}
}

func (c *pipeConn) do() error {
	w := pipeWorks.Get().(*pipeWork)
	c.chW <- w
	select {
	case <-w.done:
		err := w.err
		pipeWorks.Put(w)
		return err
	case <-w.timer.C:
		return nil
	}
}
