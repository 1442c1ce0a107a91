// Package bug reproduces the shape of the race investigated in
// influxdata/kapacitor#1462 (https://github.com/influxdata/kapacitor/pull/1462):
// alert.post and http_post encoded the body into a pooled buffer, passed it
// to http.Client.Do inside the request, and returned the buffer to the pool
// when Do returned; on a timeout or cancellation Do returns while the
// transport's write loop goroutine may still read the body, so the next
// alert's encoding raced with the send.
//
// Check: useafterput (hand-off to net/http: the request keeps the buffer
// and Do can return before the transport is done with it; deferred Put).
package bug

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func Post(ctx context.Context, client *http.Client, url string, data any) error {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			bufPool.Put(buf)
		}
	}()
	if err := json.NewEncoder(buf).Encode(data); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, buf)
	if err != nil {
		return err
	}
	resp, err := client.Do(req) // want `handed to|may still use|used after|useafterput`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
