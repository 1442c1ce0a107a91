// Package bug reproduces the shape of vitessio/vitess#17807
// (https://github.com/vitessio/vitess/pull/17807): the smart connection pool
// keeps idle connections on lock-free stacks linked through Pooled.next. Push
// sets next, but Pop handed the connection out without clearing it, so a
// connection taken out of the pool (for example one turned into a long-lived
// reserved connection) still pointed at the connection that was below it on
// the stack, keeping that one (and its 16KB read buffers) reachable after it
// was itself taken out and closed: constant memory growth with reserved
// connections.
// Check: noreset (connection handed out of the pool still holding the link of
// its time on the stack), reported at the return in Pop.
package bug

import (
	"runtime"
	"sync/atomic"
	"time"
)

type Connection interface {
	Close()
	IsClosed() bool
}

type Pooled[C Connection] struct {
	next        atomic.Pointer[Pooled[C]]
	timeCreated time.Time
	timeUsed    time.Time
	pool        *ConnPool[C]
	Conn        C
}

// connStack is a lock-free stack of pooled connections.
type connStack[C Connection] struct {
	top atomic.Pointer[Pooled[C]]
}

func (s *connStack[C]) Push(item *Pooled[C]) {
	for {
		oldHead := s.top.Load()
		item.next.Store(oldHead)
		if s.top.CompareAndSwap(oldHead, item) {
			return
		}
		runtime.Gosched()
	}
}

func (s *connStack[C]) Pop() (*Pooled[C], bool) {
	var oldHead *Pooled[C]
	var newHead *Pooled[C]

	for {
		oldHead = s.top.Load()
		if oldHead == nil {
			return nil, false
		}

		newHead = oldHead.next.Load()
		if s.top.CompareAndSwap(oldHead, newHead) {
			return oldHead, true // want `noreset`
		}
		runtime.Gosched()
	}
}

type ConnPool[C Connection] struct {
	clean    connStack[C]
	active   atomic.Int64
	borrowed atomic.Int64
	connect  func() (C, error)
}

func (pool *ConnPool[C]) get() (*Pooled[C], error) {
	pool.borrowed.Add(1)
	if conn, ok := pool.clean.Pop(); ok {
		conn.timeUsed = time.Now()
		return conn, nil
	}
	c, err := pool.connect()
	if err != nil {
		pool.borrowed.Add(-1)
		return nil, err
	}
	pool.active.Add(1)
	return &Pooled[C]{timeCreated: time.Now(), timeUsed: time.Now(), pool: pool, Conn: c}, nil
}

func (pool *ConnPool[C]) put(conn *Pooled[C]) {
	pool.borrowed.Add(-1)
	if conn.Conn.IsClosed() {
		pool.active.Add(-1)
		return
	}
	pool.clean.Push(conn)
}

// Taint removes a connection from the pool for good (reserved connections):
// the caller keeps it for as long as the reservation lives.
func (conn *Pooled[C]) Taint() {
	if conn.pool == nil {
		return
	}
	conn.pool.borrowed.Add(-1)
	conn.pool.active.Add(-1)
	conn.pool = nil
}
