// Package fixed is abhinavxd/libredesk#527 after the fix: a buffer that
// grew past 1 MiB is dropped instead of going back to the pool.
package fixed

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

const maxPooledBody = 1 << 20

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBody(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBody {
		return
	}
	buf.Reset()
	bodyPool.Put(buf)
}

// readBody drains resp.Body and returns a copy of its bytes.
func readBody(resp *http.Response) ([]byte, error) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	_, err := buf.ReadFrom(io.LimitReader(resp.Body, 64<<20))
	var out []byte
	if err == nil {
		out = bytes.Clone(buf.Bytes())
	}
	putBody(buf)
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
