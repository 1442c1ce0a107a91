// Package bug reproduces the shape of buildbuddy-io/buildbuddy#10760
// (https://github.com/buildbuddy-io/buildbuddy/pull/10760, "Merge
// newZstdCompressingReader and NewBufferedZstdCompressingReader ... I also
// fixed a potential bug, where calling Close multiple times would add the
// same buffers to the pool multiple times"). NewBufferedZstdCompressingReader
// took a read buffer and a compression buffer from a byte-buffer pool and
// returned an io.ReadCloser whose Close put both buffers back every time it
// was called, without recording that it had done so.
//
// Check: doubleput (a Close that puts buffers its receiver keeps and changes
// nothing in the receiver, on a type handed out as an io.ReadCloser). The
// reports belong at the two Puts in Close.
//
// VariableSizePool stands for buildbuddy's bytebufferpool.VariableSizePool,
// rebuilt here on a sync.Pool; compressChunk stands for CompressZstd.
package bug

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
	return r.inputReader.Close()
}

func newZstdCompressingReader(reader io.ReadCloser, readBuf, compressBuf []byte) (io.ReadCloser, error) {
	if len(readBuf) == 0 {
		return nil, io.ErrShortBuffer
	}
	return &compressingReader{inputReader: reader, readBuf: readBuf, compressBuf: compressBuf}, nil
}

// bufPoolCompressingReader manages the buffers of a compressing reader.
type bufPoolCompressingReader struct {
	io.ReadCloser
	readBuf     []byte
	compressBuf []byte
	bufferPool  *VariableSizePool
}

func (r *bufPoolCompressingReader) Close() error {
	err := r.ReadCloser.Close()
	r.bufferPool.Put(r.readBuf)     // want `doubleput`
	r.bufferPool.Put(r.compressBuf) // want `doubleput`
	return err
}

func NewBufferedZstdCompressingReader(reader io.ReadCloser, bufferPool *VariableSizePool, bufSize int64) (io.ReadCloser, error) {
	readBuf := bufferPool.Get(bufSize)
	compressBuf := bufferPool.Get(bufSize)
	cr, err := newZstdCompressingReader(reader, readBuf, compressBuf)
	if err != nil {
		bufferPool.Put(readBuf)
		bufferPool.Put(compressBuf)
		return nil, err
	}
	return &bufPoolCompressingReader{
		ReadCloser:  cr,
		readBuf:     readBuf,
		compressBuf: compressBuf,
		bufferPool:  bufferPool,
	}, nil
}
