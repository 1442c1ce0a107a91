// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics#11413
// (https://github.com/VictoriaMetrics/VictoriaMetrics/pull/11413): vmalert's
// remote-write client compressed a write request into a pooled buffer, sent
// its bytes as the body of an HTTP request (with a retry loop), and then gave
// the buffer back to the pool. When the HTTP client fails, the transport may
// still be reading the body in its own goroutine after Do returned
// (net/http.RoundTripper), so the next flush overwrote bytes still on the wire.
//
// Check: useafterput (hand-off: the pooled buffer's bytes go into an
// http.Request passed to Client.Do inside a helper; the Put that follows is
// where the docs put the report).
package bug

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

type byteBuffer struct {
	B []byte
}

var compressBufPool = sync.Pool{New: func() any { return &byteBuffer{} }}

const (
	maxPooledBufSize = 1 << 20
	maxAttempts      = 3
	retryInterval    = 100 * time.Millisecond
)

type nonRetriableError struct{ err error }

func (e *nonRetriableError) Error() string { return e.err.Error() }

type Client struct {
	c    *http.Client
	addr string

	droppedRows int
}

// encode stands in for marshalling the write request and compressing it.
func encode(dst []byte, series [][]byte) []byte {
	for _, s := range series {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}

func (c *Client) flush(ctx context.Context, series [][]byte) {
	if len(series) == 0 {
		return
	}
	zb := compressBufPool.Get().(*byteBuffer)
	zb.B = encode(zb.B[:0], series)

	var err error
	for attempts := 0; attempts < maxAttempts; attempts++ {
		err = c.send(ctx, zb.B)
		if err == nil {
			break
		}
		var nre *nonRetriableError
		if errors.As(err, &nre) {
			break
		}
		time.Sleep(retryInterval)
	}
	if err != nil {
		c.droppedRows += len(series)
	}

	if cap(zb.B) > maxPooledBufSize {
		return
	}
	zb.B = zb.B[:0]
	compressBufPool.Put(zb) // want `useafterput`
}

func (c *Client) send(ctx context.Context, data []byte) error {
	r := bytes.NewReader(data)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.addr, r)
	if err != nil {
		return &nonRetriableError{err: err}
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")

	resp, err := c.c.Do(req)
	if err != nil {
		return fmt.Errorf("error while sending request to %s: %w", c.addr, err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("unexpected response code %d", resp.StatusCode)
	}
	return nil
}
