// Package fixed applies the obvious fix to erpc/erpc#451's finding
// (https://github.com/erpc/erpc/pull/451): the response gets its own copy of
// the body, so the pooled buffer can go back when the function returns.
package fixed

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

const maxPooledBuffer = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func ReadAll(r io.Reader, chunkSize int64) ([]byte, func(), error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	buf.Grow(int(chunkSize))
	if _, err := buf.ReadFrom(r); err != nil {
		if buf.Cap() <= maxPooledBuffer {
			bufPool.Put(buf)
		}
		return nil, nil, err
	}
	cleanup := func() {
		if buf.Cap() <= maxPooledBuffer {
			bufPool.Put(buf)
		}
	}
	return buf.Bytes(), cleanup, nil
}

type JsonRpcResponse struct {
	id     string
	result []byte
}

func NewJsonRpcResponse(id string, result []byte) *JsonRpcResponse {
	return &JsonRpcResponse{id: id, result: result}
}

func (r *JsonRpcResponse) Result() []byte { return r.result }

type Client struct{}

func (c *Client) readResponse(id string, resp *http.Response) (*JsonRpcResponse, error) {
	defer resp.Body.Close()
	body, cleanup, err := ReadAll(resp.Body, 2048)
	if err != nil {
		return nil, err
	}
	if cleanup != nil {
		defer cleanup()
	}
	return NewJsonRpcResponse(id, bytes.Clone(body)), nil
}
