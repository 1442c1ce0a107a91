// Package bug reproduces the shape of cloudwego/netpoll#325 (https://github.com/cloudwego/netpoll/pull/325,
// commit https://github.com/cloudwego/netpoll/commit/fb67917162ce9c224427d2900518636763e089ec "fix: dont
// reuse buffer if conn is closed by poller"): Next() hands the user a zero-copy slice of the connection's
// input link buffer. When the peer hangs up, the poller closes the connection and closeBuffer recycles
// the input buffer (its node memory goes back to the byte cache) even though the user's handler may
// still hold slices returned by Next; the next connection reuses that memory and the handler sees
// another connection's bytes. The fix skips recycling when the connection was not closed by the user.
// Check: useafterput (a slice returned by Next is used after onHup -> closeBuffer -> inputBuffer.Close
// freed the node buffer into the pool; report at the first use after the free).
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ---- mcache-like byte cache ----

const maxCachedSize = 1 << 16

var bufCache = sync.Pool{New: func() interface{} { b := make([]byte, 0, 4096); return &b }}

func malloc(n int) *[]byte {
	bp := bufCache.Get().(*[]byte)
	if cap(*bp) < n {
		b := make([]byte, n)
		return &b
	}
	*bp = (*bp)[:n]
	return bp
}

func free(bp *[]byte) {
	if cap(*bp) > maxCachedSize {
		return
	}
	*bp = (*bp)[:0]
	bufCache.Put(bp)
}

// ---- link buffer ----

type linkBuffer struct {
	node *[]byte
	r, w int
}

func newLinkBuffer() *linkBuffer { return &linkBuffer{node: malloc(4096)} }

func (b *linkBuffer) Len() int { return b.w - b.r }

func (b *linkBuffer) write(p []byte) {
	b.w += copy((*b.node)[b.w:], p)
}

// Next returns the next n bytes without copying them.
func (b *linkBuffer) Next(n int) ([]byte, error) {
	if b.Len() < n {
		return nil, errors.New("not enough data")
	}
	p := (*b.node)[b.r : b.r+n]
	b.r += n
	return p, nil
}

func (b *linkBuffer) Close() error {
	if b.node != nil {
		free(b.node)
		b.node = nil
	}
	b.r, b.w = 0, 0
	return nil
}

// ---- connection ----

type who = int32

const (
	none who = iota
	user
	poller
)

var ErrConnClosed = errors.New("connection has been closed")

type connection struct {
	closeBy     int32
	peerHup     bool
	inputBuffer *linkBuffer
	onRequest   func(c *connection) error
}

func (c *connection) isCloseBy(w who) bool { return atomic.LoadInt32(&c.closeBy) == w }

// closeBuffer recycles the input LinkBuffer.
func (c *connection) closeBuffer() {
	// if c is not closed by user, we shouldn't reuse buffer because user may still hold the buffer
	if !c.isCloseBy(user) {
		return
	}
	if c.inputBuffer.Len() == 0 || c.onRequest != nil {
		c.inputBuffer.Close()
	}
}

func (c *connection) onClose() error {
	if atomic.CompareAndSwapInt32(&c.closeBy, none, poller) {
		c.closeBuffer()
	}
	return nil
}

// Close is called by user code once it is done with the connection.
func (c *connection) Close() error {
	if atomic.CompareAndSwapInt32(&c.closeBy, none, user) {
		c.closeBuffer()
	}
	return nil
}

// onHup is what the poller runs when the peer hangs up.
func (c *connection) onHup() error { return c.onClose() }

func (c *connection) waitRead(n int) error {
	if c.inputBuffer.node != nil && c.inputBuffer.Len() >= n {
		return nil
	}
	if c.peerHup {
		// the poller has seen the hang-up and closed the connection meanwhile
		c.onHup()
		return ErrConnClosed
	}
	return errors.New("would block")
}

// Next implements Reader: the returned slice points into the input buffer.
func (c *connection) Next(n int) ([]byte, error) {
	if err := c.waitRead(n); err != nil {
		return nil, err
	}
	return c.inputBuffer.Next(n)
}

type request struct {
	method string
	body   []byte
}

// handler is user code served by the connection's OnRequest.
func handler(c *connection, logs *[]string) (*request, error) {
	header, err := c.Next(4)
	if err != nil {
		return nil, err
	}
	body, err := c.Next(16)
	if err != nil {
		*logs = append(*logs, "truncated request "+string(header))
		return nil, err
	}
	return &request{method: string(header), body: body}, nil
}
