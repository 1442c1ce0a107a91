// Package bug reproduces the shape of gocql/gocql#1112
// (https://github.com/gocql/gocql/pull/1112, commit
// https://github.com/gocql/gocql/commit/ed13cda9d60fb18fdb6030aa07c9f058273de493,
// "conn: fix potential framer reuse in prepare"). Conn.executeBatch gets the
// response framer from framerPool (through exec). When the server answers
// "unprepared", it evicts the statement from the prepared cache and puts the
// framer back into the pool before deciding what to do next. If the statement
// is not in the cache it returns the error on an Iter that still carries the
// framer; Iter.Close, which every caller runs, puts that framer into the pool a
// second time, so two later requests can parse frames into the same framer. The
// fix only puts the framer back on the retry path, where no Iter keeps it.
// Check: doubleput (the Iter that carries the already pooled framer to
// Iter.Close, in the not-found branch of executeBatch).
package bug

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
)

const defaultBufSize = 128

var framerPool = sync.Pool{
	New: func() interface{} {
		return &framer{
			readBuffer: make([]byte, defaultBufSize),
		}
	},
}

// framer reads and parses the frames of one stream.
type framer struct {
	readBuffer []byte
	rbuf       []byte
	op         byte
}

func newFramer() *framer {
	f := framerPool.Get().(*framer)
	f.rbuf = f.readBuffer[:0]
	f.op = 0
	return f
}

var errFrameTooLarge = errors.New("gocql: frame larger than read buffer")

func (f *framer) readFrame(r io.Reader) error {
	var head [2]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	f.op = head[0]
	size := int(head[1])
	if size > len(f.readBuffer) {
		return errFrameTooLarge
	}
	f.rbuf = f.readBuffer[:size]
	_, err := io.ReadFull(r, f.rbuf)
	return err
}

type resultVoidFrame struct{}

type resultRowsFrame struct {
	numRows int
}

// RequestErrUnprepared is the server asking for a statement to be prepared again.
type RequestErrUnprepared struct {
	StatementId []byte
}

func (e *RequestErrUnprepared) Error() string {
	return fmt.Sprintf("gocql: unprepared statement %x", e.StatementId)
}

func (f *framer) parseFrame() (interface{}, error) {
	switch f.op {
	case 0:
		return &resultVoidFrame{}, nil
	case 1:
		return &resultRowsFrame{numRows: len(f.rbuf)}, nil
	case 2:
		return &RequestErrUnprepared{StatementId: append([]byte(nil), f.rbuf...)}, nil
	}
	return nil, fmt.Errorf("gocql: unknown opcode %d", f.op)
}

// Iter iterates over the rows of a response and owns its framer.
type Iter struct {
	err     error
	framer  *framer
	numRows int
	closed  int32
}

// Close gives the framer back to the pool and reports the iterator error.
func (iter *Iter) Close() error {
	if atomic.CompareAndSwapInt32(&iter.closed, 0, 1) {
		if iter.framer != nil {
			framerPool.Put(iter.framer)
			iter.framer = nil
		}
	}
	return iter.err
}

type stmtCache struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *stmtCache) remove(key string) {
	c.mu.Lock()
	delete(c.m, key)
	c.mu.Unlock()
}

// Batch is a list of statements sent together.
type Batch struct {
	Entries []string
	retries int
}

// Conn is one connection to a node.
type Conn struct {
	rw       io.ReadWriter
	stmtsLRU *stmtCache
}

func (c *Conn) exec(req []byte) (*framer, error) {
	if _, err := c.rw.Write(req); err != nil {
		return nil, err
	}
	framer := newFramer()
	if err := framer.readFrame(c.rw); err != nil {
		framerPool.Put(framer)
		return nil, err
	}
	return framer, nil
}

func (c *Conn) executeBatch(batch *Batch) *Iter {
	stmts := make(map[string]string, len(batch.Entries))
	var req []byte
	for _, stmt := range batch.Entries {
		id := fmt.Sprintf("%08x", len(stmt))
		stmts[id] = stmt
		req = append(req, stmt...)
	}

	framer, err := c.exec(req)
	if err != nil {
		return &Iter{err: err}
	}

	resp, err := framer.parseFrame()
	if err != nil {
		return &Iter{err: err, framer: framer}
	}

	switch x := resp.(type) {
	case *resultVoidFrame:
		framerPool.Put(framer)
		return &Iter{}
	case *RequestErrUnprepared:
		stmt, found := stmts[string(x.StatementId)]
		if found {
			c.stmtsLRU.remove(stmt)
		}

		if found && batch.retries < 3 {
			framerPool.Put(framer)
			batch.retries++
			return c.executeBatch(batch)
		} else {
			return &Iter{err: x, framer: framer}
		}
	case *resultRowsFrame:
		return &Iter{framer: framer, numRows: x.numRows}
	case error:
		return &Iter{err: x, framer: framer}
	default:
		return &Iter{err: fmt.Errorf("gocql: unknown response %T", x), framer: framer}
	}
}

// ExecuteBatch runs a batch and releases its iterator.
func (c *Conn) ExecuteBatch(batch *Batch) error {
	iter := c.executeBatch(batch)
	return iter.Close()
}
