package noreset

import (
	"io"
	"sync"
)

// A Reset that forgets a counter a method accumulates, called with the Put
// in a deferred closure (labstack/echo#1085): the next request starts
// counting where this one stopped.
type countingReader struct {
	src   io.Reader
	owner any
	read  int64
	limit int64
}

func (r *countingReader) Read(b []byte) (int, error) {
	n, err := r.src.Read(b)
	r.read += int64(n)
	if r.read > r.limit {
		return n, io.ErrShortBuffer
	}
	return n, err
}

func (r *countingReader) Reset(src io.Reader, owner any) {
	r.src = src
	r.owner = owner
}

var countingPool = sync.Pool{New: func() any { return &countingReader{limit: 1 << 20} }}

func readLimited(src io.Reader, owner any, sink func(io.Reader) error) error {
	r := countingPool.Get().(*countingReader)
	r.Reset(src, owner)
	defer func() {
		r.Reset(nil, nil)
		countingPool.Put(r) // want `r goes back to the pool with field read, which Read sets, never cleared`
	}()
	return sink(r)
}

// The fixed Reset zeroes the counter: not reported.
type countingReader2 struct {
	src   io.Reader
	owner any
	read  int64
	limit int64
}

func (r *countingReader2) Read(b []byte) (int, error) {
	n, err := r.src.Read(b)
	r.read += int64(n)
	if r.read > r.limit {
		return n, io.ErrShortBuffer
	}
	return n, err
}

func (r *countingReader2) Reset(src io.Reader, owner any) {
	r.src = src
	r.owner = owner
	r.read = 0
}

var countingPool2 = sync.Pool{New: func() any { return &countingReader2{limit: 1 << 20} }}

func readLimited2(src io.Reader, owner any, sink func(io.Reader) error) error {
	r := countingPool2.Get().(*countingReader2)
	r.Reset(src, owner)
	defer func() {
		r.Reset(nil, nil)
		countingPool2.Put(r)
	}()
	return sink(r)
}

// The Reset after Get in the enclosing function, the Put in a deferred
// closure that drops only the request (astaxie/beego#1862): the token that
// a method caches stays for the next user.
type tokenCtx struct {
	req   any
	out   []byte
	token string
}

func (c *tokenCtx) Reset(req any) {
	c.req = req
	c.out = c.out[:0]
}

func (c *tokenCtx) Token(newToken func() string) string {
	if c.token == "" {
		c.token = newToken()
	}
	return c.token
}

var tokenCtxPool = sync.Pool{New: func() any { return new(tokenCtx) }}

func serveToken(req any, newToken func() string) string {
	c := tokenCtxPool.Get().(*tokenCtx)
	c.Reset(req)
	defer func() {
		c.req = nil
		tokenCtxPool.Put(c) // want `c goes back to the pool with field token, which Token sets, never cleared`
	}()
	return c.Token(newToken)
}
