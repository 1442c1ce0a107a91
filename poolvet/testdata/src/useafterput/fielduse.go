package useafterput

import (
	"errors"
	"sync"
)

// A connection that closes itself on a write error, putting its ring
// buffer back and leaving the field set, and a caller that goes on with
// the buffer (Allenxuxu/gev 0542677).
type fuRing struct{ r, w int }

func (r *fuRing) IsEmpty() bool { return r.r == r.w }
func (r *fuRing) Reset()        { r.r, r.w = 0, 0 }

var fuPool = sync.Pool{New: func() any { return new(fuRing) }}

var fuErr = errors.New("write failed")

func fuWrite(r *fuRing) error {
	if r.w > 1<<20 {
		return fuErr
	}
	return nil
}

type fuConn struct {
	out *fuRing
}

func (c *fuConn) close() {
	c.out.Reset()
	fuPool.Put(c.out)
}

func (c *fuConn) handleWrite() {
	if err := fuWrite(c.out); err != nil {
		c.close()
		return
	}
	c.out.r = c.out.w
}

func (c *fuConn) HandleEvent() { // want HandleEvent:`pool:put\(0\)\+reset\?\.field`
	c.handleWrite()
	if c.out.IsEmpty() { // want `c.out is used here, but handleWrite \(line 45\) may have put it back into the pool and left it in the field`
		c.out.Reset()
	}
}

// The fix: the call says whether it closed; silent.
type fuConn2 struct {
	out *fuRing
}

func (c *fuConn2) close() {
	c.out.Reset()
	fuPool.Put(c.out)
}

func (c *fuConn2) handleWrite() (closed bool) {
	if err := fuWrite(c.out); err != nil {
		c.close()
		return true
	}
	c.out.r = c.out.w
	return false
}

func (c *fuConn2) HandleEvent() { // want HandleEvent:`pool:put\(0\)\+reset\?\.field`
	if c.handleWrite() {
		return
	}
	if c.out.IsEmpty() {
		c.out.Reset()
	}
}

// Close clears the field where it puts it; silent.
type fuConn3 struct {
	out *fuRing
}

func (c *fuConn3) close() {
	c.out.Reset()
	fuPool.Put(c.out)
	c.out = nil
}

func (c *fuConn3) handleWrite() {
	if err := fuWrite(c.out); err != nil {
		c.close()
		return
	}
	c.out.r = c.out.w
}

func (c *fuConn3) HandleEvent() {
	c.handleWrite()
	if c.out != nil && c.out.IsEmpty() {
		c.out.Reset()
	}
}

// A new buffer stored before the use; silent.
func (c *fuConn) HandleEvent2() { // want HandleEvent2:`pool:put\(0\)\+reset\?\.field`
	c.handleWrite()
	c.out = fuPool.Get().(*fuRing)
	c.out.Reset()
}
