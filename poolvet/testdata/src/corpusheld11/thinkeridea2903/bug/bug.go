// Package bug reproduces the shape of the production bug described in the
// thinkeridea blog post "Go优雅的读取http请求或响应的数据" (reposted at
// https://github.com/guevara/read-it-later/issues/2903). The service built an
// outgoing request body in a bytes.Buffer taken from a sync.Pool, created the
// request with http.NewRequest, and put the buffer back before calling
// http.DefaultClient.Do; NewRequest only wraps the bytes, Do reads them
// later, so another goroutine's Reset left requests failing with
// "http: ContentLength=2090 with Body length 0".
//
// Check: useafterput (hand-off: the request holds a reader over the pooled
// buffer's bytes; the report belongs at client.Do, the first use after the
// Put).
package bug

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

const maxPooled = 64 << 10

var buffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 4096)) }}

func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooled {
		return
	}
	buf.Reset()
	buffers.Put(buf)
}

func Forward(client *http.Client, url string, payload any) ([]byte, error) {
	buf := buffers.Get().(*bytes.Buffer)
	buf.Reset()
	if err := json.NewEncoder(buf).Encode(payload); err != nil {
		putBuffer(buf)
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(buf.Bytes()))
	if err != nil {
		putBuffer(buf)
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	putBuffer(buf)

	resp, err := client.Do(req) // want `useafterput`
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
