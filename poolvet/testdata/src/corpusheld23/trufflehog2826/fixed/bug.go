// Package bug reproduces the shape of trufflesecurity/trufflehog#2826
// (https://github.com/trufflesecurity/trufflehog/pull/2826, fix commit
// https://github.com/trufflesecurity/trufflehog/commit/b03ecf8786df43b9a03fb872617744857ab6d19c
// "reset buffer instead of putting it back"): BufferedFileWriter keeps its
// in-memory buffer in the field w.buf. When a Write crosses the size threshold
// the writer spills the buffer into a temp file and hands w.buf back to the
// shared pool, but the field still points at it. CloseForWriting later defers
// a second Put of the same w.buf, so the buffer sits in the pool twice and two
// writers can end up sharing it.
// Check: doubleput. Fixed twin: Write resets w.buf instead of putting it
// back, so only CloseForWriting returns it to the pool.
package bug

import (
	"bytes"
	"errors"
	"os"
	"sync"
)

const defaultBufferSize = 1 << 12

// Pool is a pool of *Buffer wrapping a sync.Pool.
type Pool struct {
	*sync.Pool
	bufferSize int
}

// NewBufferPool creates a pool of buffers.
func NewBufferPool() *Pool {
	p := &Pool{bufferSize: defaultBufferSize}
	p.Pool = &sync.Pool{New: func() any {
		return &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
	}}
	return p
}

// Get takes a buffer from the pool.
func (p *Pool) Get() *Buffer {
	buf, ok := p.Pool.Get().(*Buffer)
	if !ok {
		buf = &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
	}
	return buf
}

// Put returns a buffer to the pool, replacing oversized ones.
func (p *Pool) Put(buf *Buffer) {
	if buf.Cap() > 2*defaultBufferSize {
		buf = &Buffer{Buffer: bytes.NewBuffer(make([]byte, 0, p.bufferSize))}
	} else {
		buf.Reset()
	}
	p.Pool.Put(buf)
}

// Buffer wraps bytes.Buffer.
type Buffer struct {
	*bytes.Buffer
}

var sharedBufferPool = NewBufferPool()

type state uint8

const (
	writeOnly state = iota
	readOnly
)

// BufferedFileWriter buffers data in memory and switches to a temp file past a threshold.
type BufferedFileWriter struct {
	threshold uint64
	size      uint64

	bufPool  *Pool
	buf      *Buffer
	filename string
	file     *os.File

	state state
}

// New creates a writer.
func New() *BufferedFileWriter {
	return &BufferedFileWriter{threshold: 10 << 20, bufPool: sharedBufferPool, state: writeOnly}
}

// Write writes to the buffer, or to a temp file once the threshold is exceeded.
func (w *BufferedFileWriter) Write(data []byte) (int, error) {
	if w.state != writeOnly {
		return 0, errors.New("writer must be in write-only mode")
	}
	if w.buf == nil {
		w.buf = w.bufPool.Get()
	}

	size := uint64(len(data))
	bufferLength := w.buf.Len()
	defer func() { w.size += size }()

	if uint64(bufferLength)+size <= w.threshold {
		return w.buf.Write(data)
	}

	if w.file == nil {
		file, err := os.CreateTemp(os.TempDir(), "bfw")
		if err != nil {
			return 0, err
		}
		w.filename = file.Name()
		w.file = file

		// Move what is buffered so far into the file.
		if bufferLength > 0 {
			if _, err := w.buf.WriteTo(w.file); err != nil {
				return 0, err
			}
			// Keep the buffer: CloseForWriting returns it to the pool.
			w.buf.Reset()
		}
	}

	return w.file.Write(data)
}

// CloseForWriting flushes the buffer to the file and switches to read-only mode.
func (w *BufferedFileWriter) CloseForWriting() error {
	defer func() { w.state = readOnly }()
	if w.file == nil {
		return nil
	}

	// The contents are on disk now; give the buffer back.
	defer w.bufPool.Put(w.buf)

	if w.buf.Len() > 0 {
		if _, err := w.buf.WriteTo(w.file); err != nil {
			return err
		}
	}
	return w.file.Close()
}
