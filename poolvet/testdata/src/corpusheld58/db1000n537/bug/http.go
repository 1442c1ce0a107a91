// Source: https://github.com/Arriven/db1000n/issues/537
// Fix:    https://github.com/Arriven/db1000n/commit/bb00350351f06161352ef02e75372ec3f5af6981
//
// Bug: fastHTTPJob (src/job/http.go) acquired a fasthttp.Request from
// fasthttp's request pool and immediately released it with
// fasthttp.ReleaseRequest(req) (which resets the request and puts it back
// into a sync.Pool), then kept using req for the whole attack loop:
// InitRequest, client.Do, req.WriteTo, req.URI(), req.Host(). Any other
// goroutine acquiring a request got the same object ("It caused SIGSEGV in
// stoppropaganda", reuse between goroutines "making a mess").
// Fix ("fix req lifetime in http job"): the release was deferred:
// `defer fasthttp.ReleaseRequest(req)`.
//
// The fasthttp request pool (AcquireRequest/ReleaseRequest over a
// sync.Pool) is re-created below, trimmed.
//
// Check: useafterput (req is used by http.InitRequest in the loop after
// fasthttp.ReleaseRequest put it back into the pool)
package bug

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// ---- fasthttp (trimmed) ----

type RequestHeader struct {
	method  []byte
	host    []byte
	headers map[string]string
}

func (h *RequestHeader) SetMethod(m string) { h.method = append(h.method[:0], m...) }
func (h *RequestHeader) Method() []byte     { return h.method }
func (h *RequestHeader) Set(k, v string) {
	if h.headers == nil {
		h.headers = make(map[string]string)
	}
	h.headers[k] = v
}

type URI struct {
	scheme []byte
	host   []byte
	path   []byte
}

func (u *URI) Scheme() []byte { return u.scheme }
func (u *URI) Host() []byte   { return u.host }

type Request struct {
	Header RequestHeader
	uri    URI
	body   []byte
}

func (req *Request) SetRequestURI(uri string) { req.uri.path = append(req.uri.path[:0], uri...) }
func (req *Request) SetBodyString(s string)   { req.body = append(req.body[:0], s...) }
func (req *Request) URI() *URI                { return &req.uri }
func (req *Request) Host() []byte             { return req.uri.host }
func (req *Request) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(req.body)
	return int64(n), err
}

func (req *Request) Reset() {
	req.Header = RequestHeader{}
	req.uri = URI{}
	req.body = req.body[:0]
}

var requestPool sync.Pool

// AcquireRequest returns an empty Request instance from request pool.
func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

// ReleaseRequest returns req acquired via AcquireRequest to request pool.
// It is forbidden accessing req and/or its' members after returning it to
// request pool.
func ReleaseRequest(req *Request) {
	req.Reset()
	requestPool.Put(req)
}

// ---- db1000n src/core/http (trimmed) ----

type RequestConfig struct {
	Method  string
	Path    string
	Body    string
	Headers map[string]string
}

func InitRequest(c RequestConfig, req *Request) {
	req.SetRequestURI(c.Path)
	req.Header.SetMethod(c.Method)
	req.SetBodyString(c.Body)

	for key, value := range c.Headers {
		req.Header.Set(key, value)
	}
}

type Client interface {
	Do(req *Request, resp interface{}) error
}

// ---- db1000n src/job/http.go ----

type nopWriter struct{}

func (nopWriter) Write(p []byte) (int, error) { return len(p), nil }

type httpJobConfig struct {
	Count   int
	Request RequestConfig
}

func (c *httpJobConfig) Next(ctx context.Context) bool {
	if ctx.Err() != nil || c.Count == 0 {
		return false
	}
	c.Count--
	return true
}

type Accumulator struct{ attempted, sent map[string]uint64 }

func (a *Accumulator) Inc(tgt string, sent bool) {
	a.attempted[tgt]++
	if sent {
		a.sent[tgt]++
	}
}

func target(uri *URI) string { return string(uri.Scheme()) + "://" + string(uri.Host()) }

// "http" or "http-flood" in config
func fastHTTPJob(ctx context.Context, jobConfig *httpJobConfig, client Client, a *Accumulator, logf func(string, ...interface{})) (data interface{}, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	if jobConfig == nil {
		return nil, errors.New("error parsing job config")
	}

	req := AcquireRequest()
	ReleaseRequest(req)

	logf("attacking %v", jobConfig.Request.Path)

	for jobConfig.Next(ctx) {
		requestConfig := jobConfig.Request

		InitRequest(requestConfig, req) // want `useafterput`

		if err := client.Do(req, nil); err != nil {
			logf("error sending request: %v", err)

			if a != nil {
				a.Inc(target(req.URI()), false)
			}

			time.Sleep(time.Millisecond)

			continue
		}

		requestSize, _ := req.WriteTo(nopWriter{})

		if a != nil {
			a.Inc(target(req.URI()), true)
			logf("%s %s sent %d bytes", req.Host(), req.Header.Method(), requestSize)
		}
	}

	return nil, nil
}
