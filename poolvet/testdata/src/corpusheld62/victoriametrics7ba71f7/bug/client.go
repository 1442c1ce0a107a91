// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/7ba71f7f6582c7fd7f071b53dc9eaae198399705
// ("app/vmalert: fix a data race on the compress buffer after failed remote
// write requests")
//
// app/vmalert/remotewrite: Client.flush compresses the write request into zb,
// a ByteBuffer from compressBufPool, puts it back with a deferred Put, and
// passes zb.B to send, which wraps it in a bytes.Reader and hands it to
// http.Client.Do as the request body. When a send fails, the http transport
// may still be reading the body in its own goroutine after Do returns (see
// net/http.RoundTripper), so returning zb to the pool on the way out of flush
// lets the next flush overwrite bytes the transport is still sending (data
// race). The fix returns zb to the pool only if no send attempt failed;
// otherwise the buffer is left to the GC.
//
// Check: useafterput (zb.B is handed to the http transport by c.send, which
// may keep reading it after a failed request, while the deferred
// compressBufPool.Put(zb) returns it to the pool)
package bug

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ByteBuffer mirrors lib/bytesutil.ByteBuffer.
type ByteBuffer struct {
	B []byte
}

// Reset resets bb.
func (bb *ByteBuffer) Reset() {
	bb.B = bb.B[:0]
}

// ByteBufferPool mirrors lib/bytesutil.ByteBufferPool.
type ByteBufferPool struct {
	p sync.Pool
}

// Get obtains a ByteBuffer from bbp.
func (bbp *ByteBufferPool) Get() *ByteBuffer {
	bbv := bbp.p.Get()
	if bbv == nil {
		return &ByteBuffer{}
	}
	return bbv.(*ByteBuffer)
}

// Put puts bb into bbp.
func (bbp *ByteBufferPool) Put(bb *ByteBuffer) {
	bb.Reset()
	bbp.p.Put(bb)
}

// WriteRequest stands in for prompb.WriteRequest.
type WriteRequest struct {
	Timeseries [][]byte
}

// MarshalProtobuf appends the marshaled wr to dst.
func (wr *WriteRequest) MarshalProtobuf(dst []byte) []byte {
	for _, ts := range wr.Timeseries {
		dst = append(dst, ts...)
	}
	return dst
}

// Reset resets wr.
func (wr *WriteRequest) Reset() {
	wr.Timeseries = wr.Timeseries[:0]
}

// Client is an asynchronous HTTP client for writing
// timeseries via remote write protocol.
type Client struct {
	addr string
	c    *http.Client

	isVMRemoteWrite atomic.Bool
}

var (
	retryMinInterval = time.Second
	retryMaxTime     = 30 * time.Second
	sentRows         atomic.Int64
	sentBytes        atomic.Int64
	droppedRows      atomic.Int64
)

func compressZstd(dst, src []byte) []byte   { return append(dst, src...) }
func compressSnappy(dst, src []byte) []byte { return append(dst[:0], src...) }

func isTrivialNetworkError(err error) bool { return false }

// flush is a blocking function that marshals WriteRequest and sends
// it to remote-write endpoint. Flush performs limited amount of retries
// if request fails.
func (c *Client) flush(ctx context.Context, wr *WriteRequest) {
	if len(wr.Timeseries) < 1 {
		return
	}
	defer wr.Reset()

	bb := writeRequestBufPool.Get()
	bb.B = wr.MarshalProtobuf(bb.B[:0])
	zb := compressBufPool.Get()
	defer compressBufPool.Put(zb)
	if c.isVMRemoteWrite.Load() {
		zb.B = compressZstd(zb.B[:0], bb.B)
	} else {
		zb.B = compressSnappy(zb.B[:cap(zb.B)], bb.B)
	}
	writeRequestBufPool.Put(bb)

	delay := retryMinInterval
	timeStart := time.Now()

	attempts := 0
L:
	for {
		err := c.send(ctx, zb.B) // want `useafterput`
		if err != nil && (errors.Is(err, io.EOF) || isTrivialNetworkError(err)) {
			// Something in the middle between client and destination might be closing
			// the connection. So we do a one more attempt in hope request will succeed.
			err = c.send(ctx, zb.B)
		}
		if err == nil {
			sentRows.Add(int64(len(wr.Timeseries)))
			sentBytes.Add(int64(len(zb.B)))
			return
		}

		_, isNotRetriable := err.(*nonRetriableError)
		log.Printf("attempt %d to send request failed: %s (retriable: %v)", attempts+1, err, !isNotRetriable)
		if isNotRetriable {
			break
		}

		select {
		case <-ctx.Done():
			log.Printf("interrupting retry attempt %d: context cancelled", attempts+1)
			break L
		default:
		}

		timeLeftForRetries := retryMaxTime - time.Since(timeStart)
		if timeLeftForRetries < 0 {
			break
		}
		if delay > timeLeftForRetries {
			delay = timeLeftForRetries
		}
		time.Sleep(delay)
		delay *= 2

		attempts++
	}

	droppedRows.Add(int64(len(wr.Timeseries)))
	log.Printf("attempts to send remote-write request failed - dropping %d time series", len(wr.Timeseries))
}

func (c *Client) send(ctx context.Context, data []byte) error {
	r := bytes.NewReader(data)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.addr, r)
	if err != nil {
		return fmt.Errorf("failed to create new HTTP request: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")

	resp, err := c.c.Do(req)
	if err != nil {
		return fmt.Errorf("error while sending request to %s: %w; Data len %d(%d)",
			req.URL.Redacted(), err, len(data), r.Size())
	}
	defer func() { _ = resp.Body.Close() }()

	body, _ := io.ReadAll(resp.Body)
	switch resp.StatusCode / 100 {
	case 2:
		return nil
	case 4:
		if resp.StatusCode != http.StatusTooManyRequests {
			return &nonRetriableError{
				err: fmt.Errorf("unexpected response code %d for %s. Response body %q", resp.StatusCode, req.URL.Redacted(), body),
			}
		}
		fallthrough
	default:
		return fmt.Errorf("unexpected response code %d for %s. Response body %q",
			resp.StatusCode, req.URL.Redacted(), body)
	}
}

type nonRetriableError struct {
	err error
}

func (e *nonRetriableError) Error() string {
	return e.err.Error()
}

var (
	writeRequestBufPool ByteBufferPool
	compressBufPool     ByteBufferPool
)
