// Package bug reproduces the shape of pkg/sftp#649 (https://github.com/pkg/sftp/pull/649,
// commit c44c329 "bugfixes"): the v2 client's dispatch takes a result channel from the
// resPool work pool, registers it in the inflight map under the request id, and only then
// writes the packet. When the header or payload write fails, the channel is put back into
// the pool, but it is still registered in c.inflight. A later disconnect broadcasts into
// every inflight channel (or a late response is routed to it), so a channel already handed
// to another request receives a stale result. The fix registers the channel in inflight
// only after both writes succeeded.
// Check: useafterput (the channel goes back to the pool while the inflight map still holds
// it; reported at the Puts in dispatch's write-error paths).
package bug

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

var errConnectionLost = errors.New("connection lost")

type result struct {
	data []byte
	err  error
}

// workPool hands out reusable result channels until it is closed.
type workPool struct {
	mu     sync.Mutex
	closed bool
	pool   sync.Pool
}

func newWorkPool() *workPool {
	p := &workPool{}
	p.pool.New = func() any { return make(chan result, 1) }
	return p
}

func (p *workPool) Get() (chan result, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, false
	}
	return p.pool.Get().(chan result), true
}

func (p *workPool) Put(ch chan result) {
	p.pool.Put(ch)
}

func (p *workPool) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

type clientConn struct {
	wr io.Writer

	mu       sync.Mutex
	reqid    uint32
	inflight map[uint32]chan<- result
	closed   chan struct{}

	resPool *workPool
}

func newClientConn(wr io.Writer) *clientConn {
	return &clientConn{
		wr:      wr,
		closed:  make(chan struct{}),
		resPool: newWorkPool(),
	}
}

func (c *clientConn) getChan(reqid uint32) (chan<- result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()

	ch, loaded := c.inflight[reqid]
	delete(c.inflight, reqid)
	return ch, loaded
}

func (c *clientConn) disconnect() {
	c.mu.Lock()
	defer c.mu.Unlock()

	select {
	case <-c.closed:
		return
	default:
	}
	close(c.closed)

	c.resPool.Close()

	for reqid, ch := range c.inflight {
		ch <- result{err: errConnectionLost}
		c.inflight[reqid] = make(chan<- result, 1)
	}
}

// dispatch writes a request and returns the channel its result will arrive on.
func (c *clientConn) dispatch(cancel <-chan struct{}, header, payload []byte) (uint32, chan result, error) {
	ch, ok := c.resPool.Get()
	if !ok {
		return 0, nil, errConnectionLost
	}

	c.mu.Lock()
	defer c.mu.Unlock()

	c.reqid++
	reqid := c.reqid

	select {
	case <-cancel:
		c.resPool.Put(ch)
		return reqid, nil, errors.New("file already closed")
	default:
	}

	if c.inflight == nil {
		c.inflight = make(map[uint32]chan<- result)
	}
	c.inflight[reqid] = ch

	if _, err := c.wr.Write(header); err != nil {
		c.resPool.Put(ch) // want `useafterput`
		return reqid, nil, fmt.Errorf("sftp: write packet header: %w", err)
	}

	if len(payload) != 0 {
		if _, err := c.wr.Write(payload); err != nil {
			c.resPool.Put(ch) // want `useafterput`
			return reqid, nil, fmt.Errorf("sftp: write packet payload: %w", err)
		}
	}

	return reqid, ch, nil
}

// deliver routes a response read from the connection to its waiter.
func (c *clientConn) deliver(reqid uint32, data []byte) error {
	ch, ok := c.getChan(reqid)
	if !ok {
		return fmt.Errorf("request id not found: %d", reqid)
	}
	ch <- result{data: data}
	return nil
}

// Stat sends one request and waits for its answer.
func (c *clientConn) Stat(cancel <-chan struct{}, header, payload []byte) ([]byte, error) {
	_, ch, err := c.dispatch(cancel, header, payload)
	if err != nil {
		return nil, err
	}
	res := <-ch
	c.resPool.Put(ch)
	return res.data, res.err
}
