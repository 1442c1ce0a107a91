// Package fixed is VictoriaMetrics#11413 with the request owning its body.
// The project's fix keeps the buffer out of the pool after a failed attempt;
// the docs treat every Do as a hand-off (the transport may read the body after
// Do returned even on success), so the twin gives the request a copy and the
// pooled buffer is only scratch space for encoding, put back before sending.
package fixed

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
	body := bytes.Clone(zb.B)
	if cap(zb.B) <= maxPooledBufSize {
		zb.B = zb.B[:0]
		compressBufPool.Put(zb)
	}

	var err error
	for attempts := 0; attempts < maxAttempts; attempts++ {
		err = c.send(ctx, body)
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
