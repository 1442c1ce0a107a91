package doubleput

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// A request body whose Close puts its buffer and keeps it: net/http may
// call Close more than once (lightstep/lightstep-tracer-go#75).
type pooledBody struct {
	*bytes.Buffer
}

func (b *pooledBody) Close() error { // want Close:`pool:put\(0\).field`
	b.Reset()
	bodyPool.Put(b.Buffer) // want `Close puts b.Buffer back into the pool but leaves it in the receiver`
	return nil
}

func post(url string, buf *bytes.Buffer) (*http.Request, error) {
	return http.NewRequest("POST", url, &pooledBody{Buffer: buf})
}

var chunkPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func putChunk(b []byte) {
	if cap(b) > 1<<16 {
		return
	}
	b = b[:0]
	chunkPool.Put(&b)
}

// A reader over pooled chunks whose Close puts every chunk it still holds
// and leaves them there (mailru/easyjson#103).
type chunkReader struct {
	chunks [][]byte
}

func (r *chunkReader) Read(p []byte) (int, error) { return 0, io.EOF }

func (r *chunkReader) Close() error {
	for _, c := range r.chunks {
		putChunk(c) // want `Close puts c back into the pool but leaves it in the receiver`
	}
	return nil
}

func newChunkReader(chunks [][]byte) io.ReadCloser {
	return &chunkReader{chunks: chunks}
}

// The fixed versions: Close forgets what it put, runs once, or checks a
// flag it sets.
type clearingReader struct {
	chunks [][]byte
}

func (r *clearingReader) Read(p []byte) (int, error) { return 0, io.EOF }

func (r *clearingReader) Close() error {
	for _, c := range r.chunks {
		putChunk(c)
	}
	r.chunks = nil
	return nil
}

func newClearingReader(chunks [][]byte) io.ReadCloser {
	return &clearingReader{chunks: chunks}
}

type onceBody struct {
	*bytes.Buffer
	once sync.Once
}

func (b *onceBody) Close() error { // want Close:`pool:put\(0\)\?.field`
	b.once.Do(func() {
		b.Reset()
		bodyPool.Put(b.Buffer)
	})
	return nil
}

func postOnce(url string, buf *bytes.Buffer) (*http.Request, error) {
	return http.NewRequest("POST", url, &onceBody{Buffer: buf})
}

type flaggedBody struct {
	buf    *bytes.Buffer
	closed bool
}

func (b *flaggedBody) Read(p []byte) (int, error) { return b.buf.Read(p) }

func (b *flaggedBody) Close() error { // want Close:`pool:put\(0\)\?.field`
	if b.closed {
		return nil
	}
	b.closed = true
	bodyPool.Put(b.buf)
	return nil
}

func postFlagged(url string, buf *bytes.Buffer) (*http.Request, error) {
	return http.NewRequest("POST", url, &flaggedBody{buf: buf})
}

// A type whose Close only this package calls, never converted to an
// interface: its callers are in view, and checked where they call it.
type localCloser struct {
	buf *bytes.Buffer
}

func (l *localCloser) Close() { // want Close:`pool:put\(0\).field`
	bodyPool.Put(l.buf)
}

func useLocal() {
	l := &localCloser{buf: bodyPool.Get().(*bytes.Buffer)}
	l.Close()
}

// A compressing reader whose Close puts both of its buffers back and keeps
// them (buildbuddy-io/buildbuddy#10760): each is put again by a second
// Close.
type zReader struct {
	io.ReadCloser
	readBuf, zBuf []byte
}

func (r *zReader) Close() error { // want Close:`pool:put\(0\).field`
	err := r.ReadCloser.Close()
	putChunk(r.readBuf) // want `Close puts r.readBuf back into the pool but leaves it in the receiver`
	putChunk(r.zBuf)    // want `Close puts r.zBuf back into the pool but leaves it in the receiver`
	return err
}

func newZReader(rc io.ReadCloser) io.ReadCloser {
	return &zReader{ReadCloser: rc, readBuf: make([]byte, 512), zBuf: make([]byte, 512)}
}
