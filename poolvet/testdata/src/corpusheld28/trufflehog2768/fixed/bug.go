// Package bug reproduces the shape of trufflesecurity/trufflehog#2768
// (https://github.com/trufflesecurity/trufflehog/pull/2768): a buffered file
// writer keeps small payloads in a *Buffer taken from a shared pool. Its
// ReadSeekCloser wraps a bytes.Reader over w.buf.Bytes() and hands Close an
// onClose callback that puts the buffer back into the pool. Close only ran the
// callback; the embedded bytes.Reader still pointed into the pooled buffer's
// memory, so a Read on the reader after Close (done by the package's own
// reader wrapper) read bytes that now belong to whoever took the buffer next.
// The fix nils the reader in Close and makes Read return io.EOF once closed.
// Check: useafterput (the Read through the reader after its Close put the
// buffer back is the first use after the Put).
// Fixed: Close drops the bytes.Reader, and Read after Close returns io.EOF
// without touching pooled memory.
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

const defaultBufferSize = 1 << 12

// Buffer wraps bytes.Buffer like the project's metrics-tracking buffer.
type Buffer struct {
	*bytes.Buffer
}

// Pool of buffers.
type Pool struct {
	*sync.Pool
	bufferSize int
}

// NewBufferPool creates a pool of *Buffer.
func NewBufferPool() *Pool {
	p := &Pool{bufferSize: defaultBufferSize}
	p.Pool = &sync.Pool{
		New: func() any {
			return &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
		},
	}
	return p
}

// Get returns a Buffer from the pool.
func (p *Pool) Get() *Buffer {
	buf, ok := p.Pool.Get().(*Buffer)
	if !ok {
		buf = &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
	}
	return buf
}

// Put returns a Buffer to the pool, replacing oversized ones.
func (p *Pool) Put(buf *Buffer) {
	const maxAllowedCapacity = 2 * defaultBufferSize
	if buf.Cap() > maxAllowedCapacity {
		buf = &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
	} else {
		buf.Reset()
	}
	p.Pool.Put(buf)
}

// readCloser reads an in-memory buffer and returns it to the pool on Close.
type readCloser struct {
	*bytes.Reader
	onClose func()
}

// ReadCloser creates a reader over data that calls onClose when closed.
func ReadCloser(data []byte, onClose func()) *readCloser {
	return &readCloser{Reader: bytes.NewReader(data), onClose: onClose}
}

// Close runs the callback that returns the buffer to the pool.
func (brc *readCloser) Close() error {
	if brc.onClose == nil {
		return nil
	}
	brc.onClose() // Return the buffer to the pool
	brc.Reader = nil
	return nil
}

// Read returns io.EOF once the reader has been closed.
func (brc *readCloser) Read(p []byte) (int, error) {
	if brc.Reader == nil {
		return 0, io.EOF
	}
	return brc.Reader.Read(p)
}

var sharedBufferPool = NewBufferPool()

type state int

const (
	writeOnly state = iota
	readOnly
)

// BufferedFileWriter keeps data in a pooled buffer.
type BufferedFileWriter struct {
	bufPool *Pool
	buf     *Buffer
	state   state
}

// NewFromReader copies r into a new writer.
func NewFromReader(r io.Reader) (*BufferedFileWriter, error) {
	w := &BufferedFileWriter{bufPool: sharedBufferPool}
	if _, err := w.ReadFrom(r); err != nil {
		return nil, err
	}
	return w, nil
}

// Write stores data in the pooled buffer.
func (w *BufferedFileWriter) Write(data []byte) (int, error) {
	if w.buf == nil {
		w.buf = w.bufPool.Get()
	}
	return w.buf.Write(data)
}

// ReadFrom drains r into the writer.
func (w *BufferedFileWriter) ReadFrom(r io.Reader) (int64, error) {
	var total int64
	chunk := make([]byte, 512)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if _, werr := w.Write(chunk[:n]); werr != nil {
				return total, werr
			}
			total += int64(n)
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// CloseForWriting switches the writer to read-only mode.
func (w *BufferedFileWriter) CloseForWriting() error {
	w.state = readOnly
	return nil
}

// ReadSeekCloser returns a reader over the buffered content; closing it
// returns the buffer to the pool.
func (w *BufferedFileWriter) ReadSeekCloser() (io.ReadSeekCloser, error) {
	if w.state != readOnly {
		return nil, errors.New("BufferedFileWriter must be in read-only mode to read")
	}
	if w.buf == nil {
		return nil, errors.New("BufferedFileWriter has not buffer data to read")
	}
	return ReadCloser(w.buf.Bytes(), func() { w.bufPool.Put(w.buf) }), nil
}

type bufferedFileReader struct {
	bufWriter *BufferedFileWriter
	reader    io.ReadSeekCloser
}

// NewBufferedFileReader buffers r and opens a reader over it.
func NewBufferedFileReader(r io.Reader) (*bufferedFileReader, error) {
	writer, err := NewFromReader(r)
	if err != nil {
		return nil, err
	}
	if err := writer.CloseForWriting(); err != nil {
		return nil, err
	}
	rdr, err := writer.ReadSeekCloser()
	if err != nil {
		return nil, err
	}
	return &bufferedFileReader{writer, rdr}, nil
}

// Close closes the underlying reader.
func (b *bufferedFileReader) Close() error { return b.reader.Close() }

// Read reads from the underlying reader.
func (b *bufferedFileReader) Read(p []byte) (int, error) { return b.reader.Read(p) }

// ReadAfterClose mirrors the project's own use: close the reader, then keep
// reading from it.
func ReadAfterClose(data []byte) ([]byte, error) {
	rdr, err := NewBufferedFileReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	if err := rdr.Close(); err != nil {
		return nil, err
	}
	out := make([]byte, len(data))
	n, err := rdr.Read(out)
	return out[:n], err
}
