// Package bug reproduces the shape of abhinavxd/libredesk#527
// (https://github.com/abhinavxd/libredesk/pull/527): HTTP request and
// response bodies were read through pooled bytes.Buffers that went back to
// the pool whatever size they had grown to. Per the PR summary, the fix
// makes large buffers get discarded instead of reused (limit 1 MiB), so one
// huge body no longer pins its memory in the pool.
//
// Check: unbounded (a *bytes.Buffer filled by ReadFrom with a body of any
// size, copied out, reset and put back with no size check).
package bug

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readBody drains resp.Body and returns a copy of its bytes.
func readBody(resp *http.Response) ([]byte, error) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(resp.Body, 64<<20))
	var out []byte
	if err == nil {
		out = bytes.Clone(buf.Bytes())
	}
	buf.Reset()
	bodyPool.Put(buf) // want `unbounded`
	return out, err
}

// Fetch issues a GET and returns the body.
func Fetch(c *http.Client, url string) ([]byte, error) {
	resp, err := c.Get(url)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return readBody(resp)
}
