// Package bug reproduces the shape of erpc/erpc#766
// (https://github.com/erpc/erpc/pull/766, the util/bufpool.go part of it): the
// proxy borrows *bytes.Buffer values from a sync.Pool (BorrowBuf) to read
// upstream JSON-RPC bodies through util.ReadAll, which pre-grows the buffer to
// the advertised Content-Length (up to 200 MB) and then io.Copy's the body in.
// The caller gets a release closure that calls ReturnBuf, and ReturnBuf put the
// buffer back whatever its size, although its doc comment promised a capacity
// check. One large eth_getLogs response therefore parked a multi-megabyte buffer
// in the pool for the next small request.
//
// Check: unbounded. Fixed twin: ReturnBuf drops buffers whose capacity exceeds
// 4*maxBufCap, as the project's fix did.
package bug

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

const maxBufCap = 64 << 10 // 64 KiB

var byteBufPool = sync.Pool{
	New: func() any { return bytes.NewBuffer(make([]byte, 0, maxBufCap)) },
}

// BorrowBuf returns a cleared *bytes.Buffer from the pool.
func BorrowBuf() *bytes.Buffer {
	buf := byteBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// ReturnBuf puts buf back in the pool only if its capacity is reasonable;
// oversized buffers from large responses are left to the GC.
func ReturnBuf(buf *bytes.Buffer) {
	if buf == nil {
		return
	}
	if buf.Cap() > 4*maxBufCap {
		return
	}
	byteBufPool.Put(buf)
}

const maxPreGrowSize = 200 * 1024 * 1024 // 200MB

// ReadAll reads r into a pooled buffer and hands back a release func.
func ReadAll(r io.Reader, expected int) (data []byte, returnFunc func(), err error) {
	buf := BorrowBuf()

	if expected > 0 {
		if expected <= maxPreGrowSize {
			buf.Grow(expected)
		} else {
			buf.Grow(maxPreGrowSize)
		}
	}

	_, err = io.Copy(buf, r)
	if err != nil {
		ReturnBuf(buf)
		return nil, nil, err
	}

	data = buf.Bytes()
	return data, func() { ReturnBuf(buf) }, nil
}

type JsonRpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// ParseUpstreamResponse is the client-side caller: it reads the body through
// the pooled buffer, decodes a copy, and releases the buffer.
func ParseUpstreamResponse(resp *http.Response) (*JsonRpcResponse, error) {
	defer resp.Body.Close()

	data, release, err := ReadAll(resp.Body, int(resp.ContentLength))
	if err != nil {
		return nil, err
	}
	defer release()

	out := &JsonRpcResponse{}
	if err := json.Unmarshal(data, out); err != nil {
		return nil, err
	}
	// Detach the decoded raw messages from the pooled bytes before release.
	out.ID = append(json.RawMessage(nil), out.ID...)
	out.Result = append(json.RawMessage(nil), out.Result...)
	out.Error = append(json.RawMessage(nil), out.Error...)
	return out, nil
}
