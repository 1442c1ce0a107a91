// Source: https://github.com/labstack/echo/pull/409
// (commit 82bcf4c2b822d1edf10fdbfcfa1c38b75df853ee "reset u.query",
// echo v2 engine/standard/url.go and server.go, March 2016)
//
// Bug: the standard engine takes a *URL wrapper from s.pool.url for every
// request, calls reqURL.reset(r.URL) and puts it back after the handler ran.
// URL.QueryValue lazily caches the parsed query string in u.query, but
// URL.reset only replaced the embedded *url.URL and forgot the cache. A URL
// wrapper reused from the pool therefore answered QueryValue for a new
// request with the query parameters of the request that used it before.
//
// Fix: URL.reset also clears the cache (u.query = nil).
//
// Check: noreset (at URL.reset, the pool's reset function that forgets the
// query field; the object is Put back with the stale cache in ServeHTTP)
package bug

import (
	"log"
	"net/http"
	"net/url"
	"sync"
)

// --- trimmed echo/engine interfaces ---

type Handler interface {
	ServeHTTP(*Request, *Response)
}

type HandlerFunc func(*Request, *Response)

func (h HandlerFunc) ServeHTTP(req *Request, res *Response) { h(req, res) }

type Config struct {
	Address string
}

// --- engine/standard/url.go ---

type (
	// URL implements `engine.URL`.
	URL struct {
		*url.URL
		query url.Values
	}
)

// Path implements `engine.URL#Path` method.
func (u *URL) Path() string {
	return u.URL.Path
}

// SetPath implements `engine.URL#SetPath` method.
func (u *URL) SetPath(path string) {
	u.URL.Path = path
}

// QueryValue implements `engine.URL#QueryValue` method.
func (u *URL) QueryValue(name string) string {
	if u.query == nil {
		u.query = u.Query()
	}
	return u.query.Get(name)
}

// QueryString implements `engine.URL#QueryString` method.
func (u *URL) QueryString() string {
	return u.URL.RawQuery
}

func (u *URL) reset(url *url.URL) { // want `noreset`
	u.URL = url
}

// --- engine/standard/header.go, request.go, response.go (trimmed) ---

type Header struct {
	header http.Header
}

func (h *Header) reset(hdr http.Header) {
	h.header = hdr
}

type Request struct {
	*http.Request
	url    *URL
	header *Header
}

func (r *Request) URL() *URL {
	return r.url
}

func (r *Request) reset(req *http.Request, h *Header, u *URL) {
	r.Request = req
	r.header = h
	r.url = u
}

type Response struct {
	response http.ResponseWriter
	header   *Header
	status   int
	logger   *log.Logger
}

func (r *Response) reset(w http.ResponseWriter, h *Header) {
	r.response = w
	r.header = h
	r.status = http.StatusOK
}

// --- engine/standard/server.go ---

type (
	Server struct {
		*http.Server
		config  Config
		handler Handler
		logger  *log.Logger
		pool    *pool
	}

	pool struct {
		request  sync.Pool
		response sync.Pool
		header   sync.Pool
		url      sync.Pool
	}
)

func NewFromConfig(c Config) (s *Server) {
	s = &Server{
		Server: new(http.Server),
		config: c,
		pool: &pool{
			request: sync.Pool{
				New: func() interface{} {
					return &Request{}
				},
			},
			response: sync.Pool{
				New: func() interface{} {
					return &Response{logger: s.logger}
				},
			},
			header: sync.Pool{
				New: func() interface{} {
					return &Header{}
				},
			},
			url: sync.Pool{
				New: func() interface{} {
					return &URL{}
				},
			},
		},
		handler: HandlerFunc(func(req *Request, res *Response) {
			s.logger.Fatal("handler not set")
		}),
		logger: log.Default(),
	}
	s.Addr = c.Address
	s.Handler = s
	return
}

func (s *Server) SetHandler(h Handler) {
	s.handler = h
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Request
	req := s.pool.request.Get().(*Request)
	reqHdr := s.pool.header.Get().(*Header)
	reqURL := s.pool.url.Get().(*URL)
	reqHdr.reset(r.Header)
	reqURL.reset(r.URL)
	req.reset(r, reqHdr, reqURL)

	// Response
	res := s.pool.response.Get().(*Response)
	resHdr := s.pool.header.Get().(*Header)
	resHdr.reset(w.Header())
	res.reset(w, resHdr)

	s.handler.ServeHTTP(req, res)

	s.pool.request.Put(req)
	s.pool.header.Put(reqHdr)
	s.pool.url.Put(reqURL)
	s.pool.response.Put(res)
	s.pool.header.Put(resHdr)
}
