// Package bug reproduces the shape of lesismal/nbio commit 7a0ce70
// (https://github.com/lesismal/nbio/commit/7a0ce70e274500adb52479b6969b1b019533de80,
// "fix http body release"). The body reader's internal close method already
// handed the reader back to its sync.Pool, and the request release helper
// that called it then put the same reader into the pool a second time, so two
// later requests could be given one reader.
//
// Check: doubleput (a helper method puts the object on every path; its caller
// puts it again right after).
package bug

import (
	"io"
	"net/http"
	"sync"
)

var bodyReaderPool = sync.Pool{
	New: func() any { return &BodyReader{} },
}

var requestPool = sync.Pool{
	New: func() any { return &http.Request{} },
}

// BodyReader serves a request body from memory.
type BodyReader struct {
	index  int
	buffer []byte
}

func (br *BodyReader) Read(p []byte) (int, error) {
	if br.index >= len(br.buffer) {
		return 0, io.EOF
	}
	n := copy(p, br.buffer[br.index:])
	br.index += n
	return n, nil
}

// Close is what handlers see; the server releases the reader itself.
func (br *BodyReader) Close() error { return nil }

// close drops the data and recycles the reader.
func (br *BodyReader) close() {
	br.buffer = nil
	br.index = 0
	bodyReaderPool.Put(br)
}

// NewBodyReader copies data into a pooled reader.
func NewBodyReader(data []byte) *BodyReader {
	br := bodyReaderPool.Get().(*BodyReader)
	br.buffer = append([]byte(nil), data...)
	br.index = 0
	return br
}

// NewRequest gets a pooled request carrying body.
func NewRequest(method string, body []byte) *http.Request {
	req := requestPool.Get().(*http.Request)
	req.Method = method
	req.Body = NewBodyReader(body)
	return req
}

func releaseRequest(req *http.Request) {
	if req == nil {
		return
	}
	if req.Body != nil {
		br := req.Body.(*BodyReader)
		br.close()
		bodyReaderPool.Put(br) // want `doubleput`
	}
	*req = http.Request{}
	requestPool.Put(req)
}

// Serve runs one request through handler and releases it.
func Serve(method string, body []byte, handler func(*http.Request)) {
	req := NewRequest(method, body)
	handler(req)
	releaseRequest(req)
}
