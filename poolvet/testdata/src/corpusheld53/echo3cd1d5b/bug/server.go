// Source: https://github.com/labstack/echo/commit/3cd1d5be653f6441a4bffe621051d779e39c171d
// ("Fixed sync.Pool", echo v2 engine/standard/server.go, Feb 2016)
//
// Bug: the standard engine's Server keeps four sync.Pools (request,
// response, header, url), each with its own New. The request handler took
// every object from s.pool.request and type-asserted it to *Header, *URL and
// *Response. The request pool's New returns *Request and only *Request
// values are Put back into it, so those assertions panic (interface
// conversion: interface {} is *standard.Request, not *standard.Header) on
// every request. The upstream bug had four such Gets; all four are marked.
//
// Fix: each object is taken from its matching pool: s.pool.header for the
// headers, s.pool.url for the URL, s.pool.response for the response.
//
// Check: typemismatch (at the .(*Header), .(*URL) and .(*Response)
// assertions on s.pool.request.Get(), whose pool only stores *Request)
package bug

import (
	"io"
	"log"
	"net/http"
	"net/url"
	"sync"
)

// --- trimmed echo/engine interfaces ---

type HandlerFunc func(*Request, *Response)

type Config struct {
	Address string
}

// --- engine/standard ---

type (
	Server struct {
		*http.Server
		config  *Config
		handler HandlerFunc
		pool    *Pool
		logger  *log.Logger
	}

	Pool struct {
		request  sync.Pool
		response sync.Pool
		header   sync.Pool
		url      sync.Pool
	}
)

type Header struct {
	header http.Header
}

func (h *Header) reset(hdr http.Header) {
	h.header = hdr
}

type URL struct {
	url   *url.URL
	query url.Values
}

func (u *URL) reset(url *url.URL) {
	u.url = url
}

type Request struct {
	request *http.Request
	url     *URL
	header  *Header
}

func (r *Request) reset(req *http.Request, h *Header, u *URL) {
	r.request = req
	r.header = h
	r.url = u
}

type Response struct {
	response  http.ResponseWriter
	header    *Header
	status    int
	size      int64
	committed bool
	writer    io.Writer
	logger    *log.Logger
}

func (r *Response) reset(w http.ResponseWriter, h *Header) {
	r.response = w
	r.header = h
	r.status = http.StatusOK
	r.size = 0
	r.committed = false
	r.writer = w
}

func NewServer(c *Config, h HandlerFunc, l *log.Logger) *Server {
	return &Server{
		Server:  new(http.Server),
		config:  c,
		handler: h,
		pool: &Pool{
			request: sync.Pool{
				New: func() interface{} {
					return &Request{}
				},
			},
			response: sync.Pool{
				New: func() interface{} {
					return &Response{logger: l}
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
		logger: l,
	}
}

func (s *Server) Start() {
	s.Addr = s.config.Address
	s.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Request
		req := s.pool.request.Get().(*Request)
		reqHdr := s.pool.request.Get().(*Header) // want `typemismatch`
		reqURL := s.pool.request.Get().(*URL)    // want `typemismatch`
		reqHdr.reset(r.Header)
		reqURL.reset(r.URL)
		req.reset(r, reqHdr, reqURL)

		// Response
		res := s.pool.request.Get().(*Response)  // want `typemismatch`
		resHdr := s.pool.request.Get().(*Header) // want `typemismatch`
		res.reset(w, reqHdr)

		s.handler(req, res)

		s.pool.request.Put(req)
		s.pool.header.Put(reqHdr)
		s.pool.url.Put(reqURL)
		s.pool.response.Put(res)
		s.pool.header.Put(resHdr)
	})
	s.logger.Fatal(s.ListenAndServe())
}
