// Package fixed is the fixed twin of v2fly/v2ray-core commit fa63beceb
// (https://github.com/v2fly/v2ray-core/commit/fa63beceb6863c7fedc88525910ebc90a2a6442d).
// The project's fix: drop the caller's release; WriteMultiBuffer owns the
// payload once it is called.
package fixed

import (
	"errors"
	"io"
	"sync"
)

const Size = 2 * 1024

// Buffer is a recyclable fixed-size byte array.
type Buffer struct {
	v     []byte
	start int32
	end   int32
}

var bufferPool = sync.Pool{New: func() any { return &Buffer{v: make([]byte, Size)} }}

// New takes a buffer from the pool.
func New() *Buffer {
	return bufferPool.Get().(*Buffer)
}

// Release recycles the buffer into the pool.
func (b *Buffer) Release() {
	if b == nil {
		return
	}
	b.start = 0
	b.end = 0
	bufferPool.Put(b)
}

// Write copies p into the free part of the buffer.
func (b *Buffer) Write(p []byte) (int, error) {
	n := copy(b.v[b.end:], p)
	b.end += int32(n)
	return n, nil
}

// Bytes returns the content of the buffer.
func (b *Buffer) Bytes() []byte { return b.v[b.start:b.end] }

// MultiBuffer is a list of buffers.
type MultiBuffer []*Buffer

// Release releases every buffer of mb.
func (mb MultiBuffer) Release() {
	for _, b := range mb {
		b.Release()
	}
}

// seqWriter writes buffers to an io.Writer and releases them.
type seqWriter struct {
	w io.Writer
}

func (s *seqWriter) WriteMultiBuffer(mb MultiBuffer) error {
	defer mb.Release()

	for _, b := range mb {
		if _, err := s.w.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}

// readMultiBuffer fills pooled buffers from r.
func readMultiBuffer(r io.Reader) (MultiBuffer, error) {
	b := New()
	n, err := r.Read(b.v[b.end:])
	b.end += int32(n)
	if err != nil && !errors.Is(err, io.EOF) {
		b.Release()
		return nil, err
	}
	return MultiBuffer{b}, nil
}

// transferResponse sends the first (small) response packet.
func transferResponse(input io.Reader, output io.Writer) error {
	bodyWriter := &seqWriter{w: output}

	// Optimize for small response packet
	data, err := readMultiBuffer(input)
	if err != nil {
		return err
	}

	if err := bodyWriter.WriteMultiBuffer(data); err != nil {
		return err
	}

	return nil
}
