// Package bug reproduces the shape of erpc/erpc#451
// (https://github.com/erpc/erpc/pull/451, review finding "Race Condition in
// Buffer Reuse", also pointing at clients/http_json_rpc_client.go). The PR
// made util.ReadAll read bodies into a pooled buffer and hand back a cleanup
// func that returns the buffer to the pool; callers deferred cleanup() but
// kept slices of the body in the response they returned, so the next read
// into the recycled buffer overwrote a response still in use.
//
// Check: useafterput (retention: a constructor stores the body slice in the
// struct that is returned past a deferred cleanup closure that puts the
// buffer; the report belongs at the return).
package bug

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

const maxPooledBuffer = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// ReadAll reads r into a pooled buffer. The caller must call cleanup when it
// no longer needs the returned bytes.
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
	return NewJsonRpcResponse(id, body), nil // want `useafterput`
}
