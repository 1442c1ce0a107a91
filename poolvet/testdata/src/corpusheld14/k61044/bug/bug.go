// Package bug reproduces the shape of grafana/k6#1044
// (https://github.com/grafana/k6/issues/1044): the HTTP request code read
// each response body into a bytes.Buffer taken from a buffer pool, deferred
// returning the buffer to the pool, and for binary responses exported
// buf.Bytes() as the response body. Bytes does not copy, so once another
// request (http.batch) reused the buffer the earlier response body was
// overwritten. Text responses were safe because String copies. (k6's pool
// was a buffer pool type of its own; plain sync.Pool here.)
//
// Check: useafterput (a fresh response struct holds the buffer's bytes on
// the binary path only and is returned past the deferred Put; the report
// belongs at that return).
package bug

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

type ResponseType int

const (
	ResponseTypeText ResponseType = iota
	ResponseTypeBinary
	ResponseTypeNone
)

type Response struct {
	Status int
	Body   any
}

const maxPooledBuf = 1 << 20

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func readResponse(hr *http.Response, respType ResponseType) (*Response, error) {
	buf := bodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuf {
			bodyPool.Put(buf)
		}
	}()

	resp := &Response{Status: hr.StatusCode}
	if respType == ResponseTypeNone {
		_, err := io.Copy(io.Discard, hr.Body)
		return resp, err
	}
	if _, err := io.Copy(buf, hr.Body); err != nil {
		return nil, err
	}
	switch respType {
	case ResponseTypeText:
		resp.Body = buf.String()
	case ResponseTypeBinary:
		resp.Body = buf.Bytes()
	}
	return resp, nil // want `useafterput`
}
