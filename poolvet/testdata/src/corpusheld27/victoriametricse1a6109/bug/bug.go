// Package bug reproduces the shape of VictoriaMetrics/VictoriaMetrics commit e1a6109
// (https://github.com/VictoriaMetrics/VictoriaMetrics/commit/e1a6109dea071a224cea63cb46a891d6b0841915):
// vmalert's remote-write client takes a compression buffer from a pool, hands its
// bytes to the HTTP client as the request body, and gives the buffer back to the
// pool in a deferred call when flush returns. When a send fails, the HTTP transport
// may still be reading the body from its own goroutine after Do has returned, so
// the next flush can take the same buffer and overwrite it while it is being sent.
// The fix only returns the buffer to the pool when no send attempt failed.
//
// Check: useafterput (the buffer's bytes are handed to a reader that outlives the
// deferred Put; report at the send that hands them off).
package bug

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"
)

const maxPooledBufCap = 1 << 20

type byteBuffer struct {
	B []byte
}

type byteBufferPool struct {
	p sync.Pool
}

func (bp *byteBufferPool) Get() *byteBuffer {
	v := bp.p.Get()
	if v == nil {
		return &byteBuffer{}
	}
	return v.(*byteBuffer)
}

func (bp *byteBufferPool) Put(bb *byteBuffer) {
	if cap(bb.B) > maxPooledBufCap {
		return
	}
	bb.B = bb.B[:0]
	bp.p.Put(bb)
}

var (
	writeRequestBufPool byteBufferPool
	compressBufPool     byteBufferPool
)

type nonRetriableError struct {
	err error
}

func (e *nonRetriableError) Error() string { return e.err.Error() }

type Client struct {
	c       *http.Client
	addr    string
	retries int
}

type WriteRequest struct {
	Series []string
}

func (wr *WriteRequest) marshal(dst []byte) []byte {
	for _, s := range wr.Series {
		dst = append(dst, s...)
		dst = append(dst, '\n')
	}
	return dst
}

func compress(dst, src []byte) []byte {
	// stand-in for snappy/zstd block encoding
	return append(dst, src...)
}

func isTrivialNetworkError(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF)
}

func (c *Client) send(ctx context.Context, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.addr, bytes.NewReader(data))
	if err != nil {
		return &nonRetriableError{err: err}
	}
	req.Header.Set("Content-Encoding", "snappy")
	resp, err := c.c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode/100 == 4 {
		return &nonRetriableError{err: errors.New(resp.Status)}
	}
	if resp.StatusCode/100 != 2 {
		return errors.New(resp.Status)
	}
	return nil
}

// flush marshals wr and sends it to the remote-write endpoint, retrying a few times.
func (c *Client) flush(ctx context.Context, wr *WriteRequest) {
	if len(wr.Series) == 0 {
		return
	}

	bb := writeRequestBufPool.Get()
	bb.B = wr.marshal(bb.B[:0])
	zb := compressBufPool.Get()
	defer compressBufPool.Put(zb)
	zb.B = compress(zb.B[:0], bb.B)
	writeRequestBufPool.Put(bb)

	for attempts := 0; attempts < c.retries; attempts++ {
		err := c.send(ctx, zb.B) // want `useafterput`
		if err != nil && (errors.Is(err, io.EOF) || isTrivialNetworkError(err)) {
			// the connection may have been closed by a proxy; try once more
			err = c.send(ctx, zb.B)
		}
		if err == nil {
			return
		}
		var nre *nonRetriableError
		if errors.As(err, &nre) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}
