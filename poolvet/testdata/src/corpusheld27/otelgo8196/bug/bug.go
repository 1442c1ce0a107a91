// Package bug reproduces the shape of open-telemetry/opentelemetry-go#8196
// (https://github.com/open-telemetry/opentelemetry-go/pull/8196): the OTLP
// HTTP trace client compresses each export body with a *gzip.Writer taken from
// a package-level sync.Pool. The writer is Reset onto a request-local
// bytes.Buffer and then returned to the pool by a deferred Put, still pointing
// at that buffer, so every idle pooled writer pins the last compressed
// request body. The fix resets the writer onto io.Discard before the Put.
//
// Check: noreset (the deferred Put returns a writer that still references
// the request's body buffer).
package bug

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/url"
	"sync"
)

var gzPool = sync.Pool{
	New: func() any {
		w := gzip.NewWriter(io.Discard)
		return w
	},
}

// Compression selects the body encoding.
type Compression int

const (
	NoCompression Compression = iota
	GzipCompression
)

type config struct {
	Endpoint    string
	URLPath     string
	Headers     map[string]string
	Compression Compression
}

type client struct {
	cfg config
}

type request struct {
	*http.Request
	bodyReader func() io.ReadCloser
}

func bodyReader(buf []byte) func() io.ReadCloser {
	return func() io.ReadCloser { return io.NopCloser(bytes.NewReader(buf)) }
}

func bodyReaderErr(buf []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf)), nil }
}

func (d *client) newRequest(body []byte) (request, error) {
	u := url.URL{Scheme: "https", Host: d.cfg.Endpoint, Path: d.cfg.URLPath}
	r, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u.String(), http.NoBody)
	if err != nil {
		return request{Request: r}, err
	}
	for k, v := range d.cfg.Headers {
		r.Header.Set(k, v)
	}
	r.Header.Set("Content-Type", "application/x-protobuf")

	req := request{Request: r}
	switch d.cfg.Compression {
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
		req.GetBody = bodyReaderErr(b.Bytes())
	}
	return req, nil
}
