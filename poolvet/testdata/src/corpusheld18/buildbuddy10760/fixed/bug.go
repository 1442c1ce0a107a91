// Package fixed is buildbuddy-io/buildbuddy#10760 with its fix: one
// compressing reader owns the pooled buffers, and its Close gives them back
// once and forgets them, so a second Close puts nothing.
package fixed

import (
	"io"
	"sync"
)

const maxPooledBufSize = 4 << 20

type VariableSizePool struct {
	pool sync.Pool
}

func (p *VariableSizePool) Get(size int64) []byte {
	if bp, ok := p.pool.Get().(*[]byte); ok && int64(cap(*bp)) >= size {
		return (*bp)[:size]
	}
	return make([]byte, size)
}

func (p *VariableSizePool) Put(b []byte) {
	if cap(b) > maxPooledBufSize {
		return
	}
	b = b[:0]
	p.pool.Put(&b)
}

func compressChunk(dst, src []byte) []byte {
	dst = append(dst, byte(len(src)>>8), byte(len(src)))
	return append(dst, src...)
}

type compressingReader struct {
	inputReader io.ReadCloser
	readBuf     []byte
	compressBuf []byte
	leftover    []byte
	readErr     error
	bufferPool  *VariableSizePool
}

func (r *compressingReader) Read(p []byte) (int, error) {
	var n int
	if len(r.leftover) == 0 && r.readErr == nil {
		n, r.readErr = r.inputReader.Read(r.readBuf)
		if n > 0 {
			r.compressBuf = compressChunk(r.compressBuf[:0], r.readBuf[:n])
			r.leftover = r.compressBuf
		}
	}
	n = copy(p, r.leftover)
	r.leftover = r.leftover[n:]
	if len(r.leftover) > 0 {
		return n, nil
	}
	return n, r.readErr
}

func (r *compressingReader) Close() error {
	err := r.inputReader.Close()
	if r.bufferPool != nil {
		pool := r.bufferPool
		readBuf, compressBuf := r.readBuf, r.compressBuf
		r.bufferPool = nil
		r.readBuf, r.compressBuf, r.leftover = nil, nil, nil
		pool.Put(readBuf)
		pool.Put(compressBuf)
	}
	return err
}

func NewZstdCompressingReader(reader io.ReadCloser, bufferPool *VariableSizePool, bufSize int64) (io.ReadCloser, error) {
	if bufSize <= 0 {
		return nil, io.ErrShortBuffer
	}
	return &compressingReader{
		inputReader: reader,
		readBuf:     bufferPool.Get(bufSize),
		compressBuf: bufferPool.Get(bufSize),
		bufferPool:  bufferPool,
	}, nil
}
