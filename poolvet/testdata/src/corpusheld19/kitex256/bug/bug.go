// Package bug reproduces the shape of cloudwego/kitex#256
// (https://github.com/cloudwego/kitex/pull/256, commit ecb700bbaed9c1b94a5615262d41346740133d83
// "chore: mux transvr.funcPool use pointer obj"): the netpoll-mux server
// handler batches one closure per decoded frame into a []func() taken from
// the handler's funcPool, and hands the batch to a goroutine (batchGoTasks)
// that starts the tasks and returns the slice. The pool held bare []func()
// values: both OnRead (when nothing was batched) and batchGoTasks did
// funcPool.Put(fs[:0]), boxing a new slice header on every Put. The fix
// pools *[]func() and always recycles through batchGoTasks.
// Clearing the closures and a capacity guard (not in the project code) are
// present in both twins so that only the non-pointer Puts differ.
//
// Check: nonpointer (the two funcPool.Put(fs[:0]) calls).
package bug

import (
	"context"
	"encoding/binary"
	"errors"
	"sync"
)

var errHeader = errors.New("invalid mux header")

// Reader is the part of a netpoll reader that OnRead uses.
type Reader interface {
	Len() int
	Peek(n int) ([]byte, error)
	Slice(n int) (Reader, error)
}

// Connection is a netpoll connection.
type Connection interface {
	Reader() Reader
	Close() error
}

const maxPooledFuncs = 1024

type svrTransHandler struct {
	funcPool sync.Pool
	handle   func(ctx context.Context, conn Connection, r Reader)
}

func newSvrTransHandler(handle func(ctx context.Context, conn Connection, r Reader)) *svrTransHandler {
	h := &svrTransHandler{handle: handle}
	h.funcPool.New = func() interface{} {
		return make([]func(), 0, 64) // 64 is arbitrary
	}
	return h
}

func parseHeader(r Reader) (int, error) {
	hdr, err := r.Peek(4)
	if err != nil {
		return 0, err
	}
	n := int(binary.BigEndian.Uint32(hdr))
	if n <= 0 {
		return 0, errHeader
	}
	return n + 4, nil
}

// OnRead splits the readable bytes into frames and runs one task per frame.
func (t *svrTransHandler) OnRead(ctx context.Context, conn Connection) error {
	r := conn.Reader()

	fs := t.funcPool.Get().([]func())
	for total := r.Len(); total > 0; total = r.Len() {
		length, err := parseHeader(r)
		if err != nil {
			conn.Close()
			return err
		}
		if total < length && len(fs) > 0 {
			go t.batchGoTasks(fs)
			fs = t.funcPool.Get().([]func())
		}
		reader, err := r.Slice(length)
		if err != nil {
			conn.Close()
			return nil
		}
		fs = append(fs, func() {
			t.handle(ctx, conn, reader)
		})
	}
	if len(fs) > 0 {
		go t.batchGoTasks(fs)
	} else {
		t.funcPool.Put(fs[:0]) // want `nonpointer`
	}
	return nil
}

// batchGoTasks starts one goroutine per task and recycles the batch.
func (t *svrTransHandler) batchGoTasks(fs []func()) {
	for n := range fs {
		go fs[n]()
	}
	clear(fs)
	if cap(fs) <= maxPooledFuncs {
		t.funcPool.Put(fs[:0]) // want `nonpointer`
	}
}
