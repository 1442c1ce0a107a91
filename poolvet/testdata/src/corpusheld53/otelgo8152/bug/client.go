// Source: https://github.com/open-telemetry/opentelemetry-go/pull/8152
// (commit 552d7ac071727e042532ea7c4c8766a74d4691c1, exporters/otlp/otlplog/otlploghttp/client.go)
//
// Bug: with gzip compression, otlploghttp's newRequest takes a *gzip.Writer
// from gzPool, points it at a request-local bytes.Buffer (gz.Reset(&b)),
// compresses the payload and then puts the writer back with a plain
// `defer gzPool.Put(gz)`. The pooled writer still references the buffer
// whose bytes became the request body, so the pool keeps the last request's
// compressed payload reachable and hands a writer wired to someone else's
// buffer to the next Get. (The same PR also made GetBody replay the gzipped
// bytes instead of the uncompressed payload.)
//
// Fix: the deferred Put became a closure that first calls
// gz.Reset(io.Discard) so the writer no longer references the request
// buffer when it goes back to the pool; GetBody uses b.Bytes().
//
// Check: noreset (at the deferred gzPool.Put(gz): the writer is returned
// still pointing at the request's bytes.Buffer)
package bug

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"sync"
)

// Compression describes the compression used for payloads sent to the
// collector.
type Compression int

const (
	NoCompression Compression = iota
	GzipCompression
)

type httpClient struct {
	// req is cloned for every upload the client makes.
	req         *http.Request
	compression Compression
	client      *http.Client
}

var gzPool = sync.Pool{
	New: func() any {
		w := gzip.NewWriter(io.Discard)
		return w
	},
}

func (c *httpClient) newRequest(ctx context.Context, body []byte) (request, error) {
	r := c.req.Clone(ctx)
	req := request{Request: r}

	switch c.compression {
	case NoCompression:
		r.ContentLength = int64(len(body))
		req.bodyReader = bodyReader(body)
		req.GetBody = bodyReaderErr(body)
	case GzipCompression:
		// Ensure the content length is not used.
		r.ContentLength = -1
		r.Header.Set("Content-Encoding", "gzip")

		gz := gzPool.Get().(*gzip.Writer)
		defer gzPool.Put(gz) // want `noreset`

		var b bytes.Buffer
		gz.Reset(&b)

		if _, err := gz.Write(body); err != nil {
			return req, err
		}
		// Close needs to be called to ensure body is fully written.
		if err := gz.Close(); err != nil {
			return req, err
		}

		req.bodyReader = bodyReader(b.Bytes())
		req.GetBody = bodyReaderErr(body)
	}

	return req, nil
}

// bodyReader returns a closure returning a new reader for buf.
func bodyReader(buf []byte) func() io.ReadCloser {
	return func() io.ReadCloser {
		return io.NopCloser(bytes.NewReader(buf))
	}
}

// bodyReaderErr returns a closure returning a new reader for buf.
func bodyReaderErr(buf []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(buf)), nil
	}
}

// request wraps an http.Request with a resettable body reader.
type request struct {
	*http.Request

	// bodyReader allows the same body to be used for multiple requests.
	bodyReader func() io.ReadCloser
}

// reset reinitializes the request Body and uses ctx for the request.
func (r *request) reset(ctx context.Context) {
	r.Body = r.bodyReader()
	r.Request = r.WithContext(ctx)
}

// UploadLogs sends a (already marshaled) export request.
func (c *httpClient) UploadLogs(ctx context.Context, body []byte) error {
	request, err := c.newRequest(ctx, body)
	if err != nil {
		return err
	}
	request.reset(ctx)
	resp, err := c.client.Do(request.Request)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
