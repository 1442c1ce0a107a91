package doubleput

import (
	"io"
	"sync"
)

// A zerolog-style event: Msg writes it and puts it back; Stack returns its
// receiver. An event kept in a variable and finished twice is put twice
// (Altinity/clickhouse-backup#670).
type srEvent struct {
	buf   []byte
	w     io.Writer
	stack bool
}

var srEventPool = sync.Pool{New: func() any { return &srEvent{buf: make([]byte, 0, 500)} }}

func srNewEvent(w io.Writer) *srEvent {
	e := srEventPool.Get().(*srEvent)
	e.buf, e.w, e.stack = e.buf[:0], w, false
	return e
}

func (e *srEvent) Stack() *srEvent { // want Stack:`pool:alias`
	if e == nil {
		return e
	}
	e.stack = true
	return e
}

func (e *srEvent) Msg(s string) { // want Msg:`pool:put\(0\)`
	if e == nil {
		return
	}
	e.buf = append(e.buf, s...)
	e.w.Write(e.buf)
	if cap(e.buf) > 1<<16 {
		return
	}
	e.w = nil
	srEventPool.Put(e)
}

func srConnect(w io.Writer, ping func() error) error {
	ev := srNewEvent(w)
	ev.Stack().Msg("connecting")
	if err := ping(); err != nil {
		return err
	}
	ev.Stack().Msg("connected") // want `put into the pool twice`
	return nil
}

// The fix: a new event for each message; silent.
func srConnect2(w io.Writer, ping func() error) error {
	srNewEvent(w).Stack().Msg("connecting")
	if err := ping(); err != nil {
		return err
	}
	srNewEvent(w).Stack().Msg("connected")
	return nil
}
