package useafterput

import (
	"io"
	"sync"
)

var chunkBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// A body reader whose Close puts its chunks back but keeps them in
// r.chunks: a Read still running in a handler after Close copies from
// buffers another request may own (lesismal/nbio#502).
type chunkReader struct {
	chunks []*[]byte
	off    int
	closed bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*r.chunks[0])[r.off:])
	r.off += n
	if r.off == len(*r.chunks[0]) {
		r.chunks = r.chunks[1:]
		r.off = 0
	}
	return n, nil
}

func (r *chunkReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	for _, c := range r.chunks {
		*c = (*c)[:0]
		chunkBufs.Put(c) // want `Close puts the elements of r.chunks back into the pool but leaves them in the field, and Read reads them`
	}
	return nil
}

// The fix: Close drops the chunks it put back.
type chunkReaderFixed struct {
	chunks []*[]byte
	off    int
	closed bool
}

func (r *chunkReaderFixed) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*r.chunks[0])[r.off:])
	r.off += n
	return n, nil
}

func (r *chunkReaderFixed) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	for _, c := range r.chunks {
		*c = (*c)[:0]
		chunkBufs.Put(c)
	}
	r.chunks = nil
	return nil
}

// A reader that refuses to run after Close.
type chunkReaderGuarded struct {
	chunks []*[]byte
	closed bool
}

func (r *chunkReaderGuarded) Read(p []byte) (int, error) {
	if r.closed || len(r.chunks) == 0 {
		return 0, io.EOF
	}
	return copy(p, *r.chunks[0]), nil
}

func (r *chunkReaderGuarded) Close() error {
	r.closed = true
	for _, c := range r.chunks {
		*c = (*c)[:0]
		chunkBufs.Put(c)
	}
	return nil
}

// Slots set to nil as their elements go back, and a method that only
// stores into the slots: nothing reads a put element.
type chunkSet struct {
	chunks []*[]byte
}

func (s *chunkSet) fill(n int) {
	s.chunks = make([]*[]byte, n)
	for i := range s.chunks {
		s.chunks[i] = chunkBufs.Get().(*[]byte)
	}
}

func (s *chunkSet) size() int {
	n := 0
	for _, c := range s.chunks {
		if c != nil {
			n += len(*c)
		}
	}
	return n
}

func (s *chunkSet) release() {
	for i := range s.chunks {
		if s.chunks[i] != nil {
			chunkBufs.Put(s.chunks[i])
			s.chunks[i] = nil
		}
	}
}
