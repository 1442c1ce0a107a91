// Package fixed is the obvious fix for the bug in the thinkeridea blog post
// (https://github.com/guevara/read-it-later/issues/2903): the request body is
// a copy of the encoded bytes, so the pooled buffer can go back before Do.
// (Keeping the buffer until Do returns is not enough in general: net/http's
// transport may still read a request body after Do has returned.)
package fixed

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
	body := bytes.Clone(buf.Bytes())
	putBuffer(buf)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")

	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}
