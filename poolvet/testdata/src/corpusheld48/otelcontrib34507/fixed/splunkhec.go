// Source: https://github.com/open-telemetry/opentelemetry-collector-contrib/pull/34507
// (tracking issue https://github.com/open-telemetry/opentelemetry-collector-contrib/issues/34357)
//
// exporter/splunkhec: pushLogDataInBatches takes a buffer (a
// cancellableBytesWriter or cancellableGzipWriter) from the client's
// bufferPool and returns it with a deferred bufferPool.put. In between,
// postEvents -> hecWorker.send hands that very buffer to net/http as the
// request body (the buffer is an io.Reader). The HTTP transport may still be
// reading a request body on its own goroutine after client.Do has returned
// (notably on error/retry paths), so once the deferred put runs the buffer
// is reused by the next push (Reset + new events written) while the old
// request is still being written: corrupted or mixed payloads, "ContentLength
// with Body length 0", "flate: closed writer", invalid gzip at Splunk.
//
// Fixed by copying the payload into a fresh []byte in send() and giving
// net/http a bytes.Reader over the copy, so the pooled buffer is no longer
// shared with the transport (Bytes() was added to the buffer interface).
//
// Fixed twin: send() copies the payload before handing it to net/http.
package fixed

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync"
)

var errOverCapacity = errors.New("over capacity")

type buffer interface {
	io.Writer
	io.Reader
	io.Closer
	Reset()
	Len() int
	Empty() bool
	Bytes() []byte
}

type cancellableBytesWriter struct {
	innerWriter *bytes.Buffer
	maxCapacity uint
}

func (c *cancellableBytesWriter) Write(b []byte) (int, error) {
	if c.maxCapacity == 0 {
		return c.innerWriter.Write(b)
	}
	if c.innerWriter.Len()+len(b) > int(c.maxCapacity) {
		return 0, errOverCapacity
	}
	return c.innerWriter.Write(b)
}

func (c *cancellableBytesWriter) Read(p []byte) (int, error) { return c.innerWriter.Read(p) }
func (c *cancellableBytesWriter) Reset()                     { c.innerWriter.Reset() }
func (c *cancellableBytesWriter) Close() error               { return nil }
func (c *cancellableBytesWriter) Len() int                   { return c.innerWriter.Len() }
func (c *cancellableBytesWriter) Empty() bool                { return c.innerWriter.Len() == 0 }
func (c *cancellableBytesWriter) Bytes() []byte              { return c.innerWriter.Bytes() }

type cancellableGzipWriter struct {
	innerBuffer *bytes.Buffer
	innerWriter *gzip.Writer
	maxCapacity uint
	rawLen      int
}

func (c *cancellableGzipWriter) Write(b []byte) (int, error) {
	if c.maxCapacity != 0 && c.innerBuffer.Len()+len(b) > int(c.maxCapacity) {
		return 0, errOverCapacity
	}
	c.rawLen += len(b)
	return c.innerWriter.Write(b)
}

func (c *cancellableGzipWriter) Read(p []byte) (int, error) { return c.innerBuffer.Read(p) }

func (c *cancellableGzipWriter) Reset() {
	c.innerBuffer.Reset()
	c.innerWriter.Reset(c.innerBuffer)
	c.rawLen = 0
}

func (c *cancellableGzipWriter) Close() error  { return c.innerWriter.Close() }
func (c *cancellableGzipWriter) Len() int      { return c.innerBuffer.Len() }
func (c *cancellableGzipWriter) Empty() bool   { return c.rawLen == 0 }
func (c *cancellableGzipWriter) Bytes() []byte { return c.innerBuffer.Bytes() }

// bufferPool is a pool of buffer objects.
type bufferPool struct {
	pool *sync.Pool
}

func (p bufferPool) get() buffer {
	return p.pool.Get().(buffer)
}

func (p bufferPool) put(bf buffer) {
	p.pool.Put(bf)
}

func newBufferPool(bufCap uint, compressionEnabled bool) bufferPool {
	return bufferPool{
		&sync.Pool{
			New: func() any {
				innerBuffer := &bytes.Buffer{}
				if compressionEnabled {
					return &cancellableGzipWriter{
						innerBuffer: innerBuffer,
						innerWriter: gzip.NewWriter(innerBuffer),
						maxCapacity: bufCap,
					}
				}
				return &cancellableBytesWriter{
					innerWriter: innerBuffer,
					maxCapacity: bufCap,
				}
			},
		},
	}
}

type hecWorker interface {
	send(context.Context, buffer, map[string]string) error
}

type defaultHecWorker struct {
	url     *url.URL
	client  *http.Client
	headers map[string]string
}

func (hec *defaultHecWorker) send(ctx context.Context, buf buffer, headers map[string]string) error {
	// We copy the bytes to a new buffer to avoid corruption: net/http may
	// still read the request body after Do returns.
	nb := make([]byte, buf.Len())
	copy(nb, buf.Bytes())
	bodyBuf := bytes.NewReader(nb)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hec.url.String(), bodyBuf)
	if err != nil {
		return err
	}
	req.ContentLength = int64(buf.Len())

	for k, v := range hec.headers {
		req.Header.Set(k, v)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	if _, ok := buf.(*cancellableGzipWriter); ok {
		req.Header.Set("Content-Encoding", "gzip")
	}

	resp, err := hec.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

type iterState struct {
	record int
	done   bool
}

type client struct {
	hecWorker  hecWorker
	bufferPool bufferPool
	maxLen     uint
}

// pushLogDataInBatches sends batches of Splunk events in JSON format.
func (c *client) pushLogDataInBatches(ctx context.Context, records [][]byte, headers map[string]string) error {
	buf := c.bufferPool.get()
	defer c.bufferPool.put(buf)
	is := iterState{}

	for !is.done {
		buf.Reset()
		is = c.fillLogsBuffer(records, buf, is)
		if !buf.Empty() {
			if err := c.postEvents(ctx, buf, headers); err != nil {
				return err
			}
		}
	}
	return nil
}

func (c *client) fillLogsBuffer(records [][]byte, buf buffer, is iterState) iterState {
	for k := is.record; k < len(records); k++ {
		_, err := buf.Write(records[k])
		if err == nil {
			continue
		}
		if errors.Is(err, errOverCapacity) {
			if !buf.Empty() {
				return iterState{record: k}
			}
			return iterState{record: k + 1}
		}
	}
	return iterState{done: true}
}

func (c *client) postEvents(ctx context.Context, buf buffer, headers map[string]string) error {
	if err := buf.Close(); err != nil {
		return err
	}
	return c.hecWorker.send(ctx, buf, headers)
}
