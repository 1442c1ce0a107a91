// Package interproc holds the interprocedural shapes that poolvet follows
// through function summaries: Close-like methods, conditional Puts followed
// by a Put that always happens, and decoding into a pooled struct.
package interproc

import (
	"bytes"
	"encoding/json"
	"sync"
)

var zPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// A Close-like method: it puts a field of its receiver and leaves it set.
type reader struct{ buf *bytes.Buffer }

func (r *reader) Close() error { // want Close:`pool:put\(0\).field`
	r.buf.Reset()
	if r.buf.Cap() <= 64<<10 {
		zPool.Put(r.buf)
	}
	return nil
}

func closeTwice(r *reader, fail bool) error {
	defer r.Close()
	if fail {
		r.Close() // want `r is put into the pool here and again by the deferred Put`
		return nil
	}
	return nil
}

// A Close that clears its field is idempotent: no fact, no report.
type safeReader struct{ buf *bytes.Buffer }

func (r *safeReader) Close() error {
	if r.buf == nil {
		return nil
	}
	r.buf.Reset()
	if r.buf.Cap() <= 64<<10 {
		zPool.Put(r.buf)
	}
	r.buf = nil
	return nil
}

func closeSafeTwice(r *safeReader) {
	defer r.Close()
	r.Close()
}

// A callee that puts on some paths, then a Put that always happens.
type ctx struct {
	redirect string
	buf      []byte
}

var ctxPool = sync.Pool{New: func() any { return new(ctx) }}

func Handle(c *ctx) { // want Handle:`pool:put\(0\)\?`
	if c.redirect != "" {
		c.buf = c.buf[:0]
		ctxPool.Put(c)
	}
}

func serve(path string) {
	c := ctxPool.Get().(*ctx)
	c.buf = c.buf[:0]
	c.redirect = path
	Handle(c)
	ctxPool.Put(c) // want `c may be put into the pool twice: the call at line 73 already puts it on some paths`
}

// Looking at the callee's answer makes the second Put safe.
func (c *ctx) recycleIfDone() bool {
	if c.redirect != "" {
		return false
	}
	c.buf = c.buf[:0]
	ctxPool.Put(c)
	return true
}

func serveChecked() {
	c := ctxPool.Get().(*ctx)
	if !c.recycleIfDone() {
		c.redirect = ""
		c.buf = c.buf[:0]
		ctxPool.Put(c)
	}
}

// Decoding into a pooled struct that is never cleared.
type request struct {
	Items []string `json:"items"`
}

var reqPool = sync.Pool{New: func() any { return new(request) }}

func decode(body []byte) (int, error) {
	req := reqPool.Get().(*request)
	defer reqPool.Put(req) // want `req \(\*request\) was decoded into without being cleared`
	if err := json.Unmarshal(body, req); err != nil {
		return 0, err
	}
	return len(req.Items), nil
}

func decodeCleared(body []byte) (int, error) {
	req := reqPool.Get().(*request)
	defer reqPool.Put(req)
	*req = request{}
	if err := json.Unmarshal(body, req); err != nil {
		return 0, err
	}
	return len(req.Items), nil
}
