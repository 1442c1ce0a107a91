package useafterput

import (
	"io"
	"sync"
)

// A pooled decompressor whose Read puts itself back at io.EOF: the caller
// still holds it and may read again (grpc/grpc-go#8171, dgraph 7cdde0b).
type rpReader struct {
	src  io.Reader
	pool *sync.Pool
}

func (r *rpReader) Read(p []byte) (int, error) { // want Read:`pool:put\(0\)\?`
	n, err := r.src.Read(p)
	if err == io.EOF {
		r.pool.Put(r) // want `Read puts its own receiver r back into the pool`
	}
	return n, err
}

var rpReaders = sync.Pool{New: func() any { return new(rpReader) }}

func rpDecompress(src io.Reader) io.Reader {
	r := rpReaders.Get().(*rpReader)
	r.src, r.pool = src, &rpReaders
	return r
}

// Putting back in Close, which the caller calls once it is done: silent.
type rpCloser struct {
	src io.Reader
}

var rpClosers = sync.Pool{New: func() any { return new(rpCloser) }}

func (r *rpCloser) Read(p []byte) (int, error) { return r.src.Read(p) }

func (r *rpCloser) Close() error { // want Close:`pool:put\(0\)`
	r.src = nil
	rpClosers.Put(r)
	return nil
}

// A Read that puts back a scratch buffer of its own, not itself: silent.
type rpScratch struct {
	src io.Reader
}

var rpBufs = sync.Pool{New: func() any { b := make([]byte, 512); return &b }}

func (r *rpScratch) Read(p []byte) (int, error) {
	bp := rpBufs.Get().(*[]byte)
	n, err := r.src.Read((*bp)[:min(len(p), len(*bp))])
	copy(p, (*bp)[:n])
	rpBufs.Put(bp)
	return n, err
}
