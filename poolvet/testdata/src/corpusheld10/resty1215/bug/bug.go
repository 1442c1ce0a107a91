// Package bug reproduces the shape of go-resty/resty#1215
// (https://github.com/go-resty/resty/pull/1215), a data race in resty v3
// like the v2 one of resty#630: the request body was a reader over a pooled
// bytes.Buffer, and the buffer went back to the pool once the request call
// returned. The HTTP transport may still read the body after Do returns, so
// the next user of the buffer could overwrite a body still being sent.
//
// Check: useafterput (hand-off: the pooled buffer's bytes are given to
// net/http's transport in a request, then the buffer is released through a
// size-guarded Put wrapper; the report is at that release).
package bug

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
)

const maxPooledBuf = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func releaseBuffer(b *bytes.Buffer) {
	if b == nil || b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

type Client struct {
	hc *http.Client
}

func (c *Client) PostJSON(ctx context.Context, url string, body any) (*http.Response, error) {
	buf := acquireBuffer()
	if err := json.NewEncoder(buf).Encode(body); err != nil {
		releaseBuffer(buf)
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(buf.Bytes()))
	if err != nil {
		releaseBuffer(buf)
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	releaseBuffer(buf) // want `useafterput`
	return resp, err
}
