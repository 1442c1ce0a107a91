// Package bug reproduces the shape of lesismal/nbio commit fd8d727
// ("http: fix BodyReader multi close bug",
// https://github.com/lesismal/nbio/commit/fd8d727db2ad539c6eb7c1020adf9c2047c18b19):
// the HTTP body reader handed to handlers as req.Body freed its buffers and
// then put itself back into bodyReaderPool from inside Close. Handlers close
// r.Body as net/http allows, and the framework closed it again in
// releaseRequest, so the same *BodyReader went into the pool twice (and a
// second Close could free buffers that a new owner had appended meanwhile).
//
// Check: doubleput (a Close reachable through io.ReadCloser that puts its
// own receiver into a pool; callers may close more than once). The report
// belongs on the Put inside Close.
package bug

import (
	"io"
	"net/http"
	"sync"
)

const maxPooledBody = 64 << 10

var bodyBufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, 4096)
		return &b
	},
}

func mallocBody(n int) []byte {
	p := bodyBufPool.Get().(*[]byte)
	if cap(*p) < n {
		return make([]byte, 0, n)
	}
	return (*p)[:0]
}

func freeBody(b []byte) {
	if cap(b) > maxPooledBody {
		return
	}
	b = b[:0]
	bodyBufPool.Put(&b)
}

var bodyReaderPool = sync.Pool{
	New: func() any { return &BodyReader{} },
}

// BodyReader implements io.ReadCloser and is used as the HTTP body.
type BodyReader struct {
	index   int
	left    int
	buffers [][]byte
}

func newBodyReader() *BodyReader {
	return bodyReaderPool.Get().(*BodyReader)
}

func (br *BodyReader) append(data []byte) {
	b := append(mallocBody(len(data)), data...)
	br.buffers = append(br.buffers, b)
	br.left += len(b)
}

func (br *BodyReader) Read(p []byte) (int, error) {
	if br.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && br.left > 0 {
		b := br.buffers[0]
		c := copy(p[n:], b[br.index:])
		if c+br.index >= len(b) {
			freeBody(b)
			br.buffers[0] = nil
			br.buffers = br.buffers[1:]
			br.index = 0
		} else {
			br.index += c
		}
		n += c
		br.left -= c
	}
	return n, nil
}

// Close frees the buffers and resets the reader back into the pool.
func (br *BodyReader) Close() error {
	for _, b := range br.buffers {
		freeBody(b)
	}
	*br = BodyReader{}
	bodyReaderPool.Put(br) // want `doubleput`
	return nil
}

var _ io.ReadCloser = (*BodyReader)(nil)

func releaseRequest(req *http.Request, retainHTTPBody bool) {
	if req == nil || req.Body == nil {
		return
	}
	if br, ok := req.Body.(*BodyReader); ok {
		if !retainHTTPBody {
			br.Close()
		}
	} else if !retainHTTPBody {
		req.Body.Close()
	}
}

// Serve parses a body, runs the handler and releases the request.
func Serve(h http.Handler, w http.ResponseWriter, req *http.Request, chunks [][]byte) {
	br := newBodyReader()
	for _, c := range chunks {
		br.append(c)
	}
	req.Body = br
	h.ServeHTTP(w, req)
	releaseRequest(req, false)
}
