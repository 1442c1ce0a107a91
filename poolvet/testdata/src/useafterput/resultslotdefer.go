package useafterput

import (
	"fmt"
	"io"
	"sync"
)

// A function with a defer keeps its results in slots: each return stores
// into them and the shared exit loads them. A return of nil after a Put on
// one path is not a use of the object another path returns
// (pkg/sftp#649's dispatch).

type rsdResult struct{ err error }

var rsdPool = sync.Pool{New: func() any { return make(chan rsdResult, 1) }}

type rsdConn struct {
	mu sync.Mutex
	wr io.Writer
}

func (c *rsdConn) dispatch(h, pl []byte) (chan rsdResult, error) {
	ch := rsdPool.Get().(chan rsdResult)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.wr.Write(h); err != nil {
		rsdPool.Put(ch)
		return nil, fmt.Errorf("header: %w", err)
	}
	if len(pl) != 0 {
		if _, err := c.wr.Write(pl); err != nil {
			rsdPool.Put(ch)
			return nil, fmt.Errorf("payload: %w", err)
		}
	}
	return ch, nil
}

// Returning the channel after the Put is still reported.
func (c *rsdConn) dispatchBad(h []byte) (chan rsdResult, error) {
	ch := rsdPool.Get().(chan rsdResult)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.wr.Write(h); err != nil {
		rsdPool.Put(ch)
		return ch, err // want `ch is used after it was put back into the pool at line 46`
	}
	return ch, nil
}
