// Package bug reproduces the shape of cloudwego/kitex#256 (https://github.com/cloudwego/kitex/pull/256,
// commit ecb700bbaed9c1b94a5615262d41346740133d83, "mux transvr.funcPool use pointer obj"): the
// netpoll mux server handler batches one closure per decoded frame into a []func() borrowed
// from the handler's funcPool, and batchGoTasks starts the closures and hands the slice back.
// The pool held []func() values, so both Puts (the empty-batch path in OnRead and the one in
// batchGoTasks) boxed a slice header into an interface and allocated on every read. The fix
// pools a *[]func().
// (Both twins clear the closures and bound the capacity before the Put, so that only the
// boxing differs.)
// Check: nonpointer (reported at both Puts of fs[:0]).
package bug

import (
	"context"
	"errors"
	"net"
	"sync"
)

var errShortHeader = errors.New("short header")

// Reader is the part of the netpoll connection reader the handler uses.
type Reader interface {
	Len() int
	Peek(n int) ([]byte, error)
	Slice(n int) ([]byte, error)
}

type Connection interface {
	net.Conn
	Reader() Reader
}

const maxBatch = 1024

type svrTransHandler struct {
	handle   func(ctx context.Context, conn net.Conn, frame []byte)
	funcPool sync.Pool
}

func newSvrTransHandler(handle func(context.Context, net.Conn, []byte)) *svrTransHandler {
	h := &svrTransHandler{handle: handle}
	h.funcPool.New = func() any {
		return make([]func(), 0, 64)
	}
	return h
}

func parseHeader(r Reader) (int, error) {
	hdr, err := r.Peek(4)
	if err != nil || len(hdr) < 4 {
		return 0, errShortHeader
	}
	return int(hdr[0])<<24 | int(hdr[1])<<16 | int(hdr[2])<<8 | int(hdr[3]), nil
}

// OnRead splits the readable bytes into frames and schedules one task per frame.
func (t *svrTransHandler) OnRead(ctx context.Context, conn net.Conn) error {
	connection := conn.(Connection)
	r := connection.Reader()

	fs := t.funcPool.Get().([]func())
	for total := r.Len(); total > 0; total = r.Len() {
		length, err := parseHeader(r)
		if err != nil {
			connection.Close()
			return err
		}
		if total < length && len(fs) > 0 {
			go t.batchGoTasks(fs)
			fs = t.funcPool.Get().([]func())
		}
		frame, err := r.Slice(length)
		if err != nil {
			connection.Close()
			return nil
		}
		fs = append(fs, func() {
			t.handle(ctx, conn, frame)
		})
	}
	if len(fs) > 0 {
		go t.batchGoTasks(fs)
	} else if cap(fs) <= maxBatch {
		t.funcPool.Put(fs[:0]) // want `nonpointer`
	}
	return nil
}

// batchGoTasks starts one goroutine per task, then recycles the batch slice.
func (t *svrTransHandler) batchGoTasks(fs []func()) {
	for n := range fs {
		go fs[n]()
	}
	if cap(fs) > maxBatch {
		return
	}
	clear(fs)
	t.funcPool.Put(fs[:0]) // want `nonpointer`
}
