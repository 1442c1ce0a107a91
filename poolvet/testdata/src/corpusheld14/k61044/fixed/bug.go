// Package fixed is the fixed twin of grafana/k6#1044
// (https://github.com/grafana/k6/issues/1044): the binary body is copied
// out of the pooled buffer before the buffer goes back to the pool.
package fixed

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
		resp.Body = bytes.Clone(buf.Bytes())
	}
	return resp, nil
}
