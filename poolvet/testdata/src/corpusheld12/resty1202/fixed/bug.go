// Package fixed is go-resty/resty#1202 (first defect) after the fix:
// Execute resets the body buffer, puts it back and clears r.bodyBuf, so a
// later CurlCmd on the same request no longer reaches pooled memory.
package fixed

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
)

const maxPooledBuffer = 64 << 10

var bufPool = &sync.Pool{New: func() any { return &bytes.Buffer{} }}

func acquireBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func backToBufPool(b *bytes.Buffer) {
	if b != nil && b.Cap() <= maxPooledBuffer {
		b.Reset()
		bufPool.Put(b)
	}
}

type Response struct {
	Status int
	Size   int
}

type Client struct{}

func (c *Client) send(method, url string, body []byte) (*Response, error) {
	return &Response{Status: 200, Size: len(body)}, nil
}

type Request struct {
	client  *Client
	Method  string
	URL     string
	Body    any
	bodyBuf *bytes.Buffer
}

func (r *Request) Execute() (*Response, error) {
	r.bodyBuf = acquireBuffer()
	if err := json.NewEncoder(r.bodyBuf).Encode(r.Body); err != nil {
		return nil, err
	}
	resp, err := r.client.send(r.Method, r.URL, r.bodyBuf.Bytes())
	backToBufPool(r.bodyBuf)
	r.bodyBuf = nil
	return resp, err
}

// CurlCmd renders the request as a curl command line.
func (r *Request) CurlCmd() string {
	var sb strings.Builder
	sb.WriteString("curl -X " + r.Method)
	if r.bodyBuf != nil {
		sb.WriteString(" -d '" + r.bodyBuf.String() + "'")
	}
	sb.WriteString(" " + r.URL)
	return sb.String()
}

// ExecuteAndTrace runs the request and returns the curl command for the log.
func ExecuteAndTrace(r *Request) (*Response, string, error) {
	resp, err := r.Execute()
	if err != nil {
		return nil, "", err
	}
	cmd := r.CurlCmd()
	return resp, cmd, nil
}
