// Package fixed is go-resty/resty#1215's fix: the request body is an
// independent copy of the pooled buffer's bytes, so the buffer can go back
// to the pool before the transport reads the body.
package fixed

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
	payload := bytes.Clone(buf.Bytes())
	releaseBuffer(buf)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.hc.Do(req)
}
