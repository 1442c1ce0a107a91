// Package bug reproduces the shape of VictoriaMetrics/VictoriaLogs#869
// (https://github.com/VictoriaMetrics/VictoriaLogs/issues/869, "VLInsert
// v1.40.0 memory usage increased by a lot"), addressed by VictoriaMetrics
// commit 539bab0d98 (https://github.com/VictoriaMetrics/VictoriaMetrics/commit/539bab0d98ea1bcc9d5c9797ab4f939579b77e25):
// ReadUncompressedData reads each (gzip/zlib) request body into a pooled
// ByteBuffer whose ReadFrom grows B by 30% steps up to the request size, and
// always gave the buffer back. After one big request the pool kept buffers
// of many megabytes that later small requests barely used.
//
// Check: unbounded (a growable buffer put into a sync.Pool without any size
// check). The want is on the sync.Pool Put inside ByteBufferPool.Put, the
// only Put, whose single caller here checks nothing; the cap comparisons in
// ReadFrom only pre-size and grow the buffer. (The project's guard went into
// the caller's deferred function.)
package bug

import (
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"sync"
)

// ByteBuffer is a growable byte buffer.
type ByteBuffer struct {
	B []byte
}

func (bb *ByteBuffer) Reset() {
	bb.B = bb.B[:0]
}

func setLength(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	return append(b[:cap(b)], make([]byte, n-cap(b))...)
}

// ReadFrom appends all the data from r to bb.B.
func (bb *ByteBuffer) ReadFrom(r io.Reader) (int64, error) {
	b := bb.B
	bLen := len(b)
	if cap(b) < 4*1024 {
		// pre-allocate at least 4KiB
		b = setLength(b, 4*1024)
	}
	offset := bLen
	for {
		if free := cap(b) - offset; free < cap(b)/16 {
			// grow by 30%
			b = setLength(b, int(1.3*float64(cap(b))))
		}
		n, err := r.Read(b[offset:cap(b)])
		offset += n
		if err != nil {
			bb.B = b[:offset]
			if err == io.EOF {
				err = nil
			}
			return int64(offset - bLen), err
		}
	}
}

// ByteBufferPool is a pool of ByteBuffers.
type ByteBufferPool struct {
	p sync.Pool
}

func (bbp *ByteBufferPool) Get() *ByteBuffer {
	bbv := bbp.p.Get()
	if bbv == nil {
		return &ByteBuffer{}
	}
	return bbv.(*ByteBuffer)
}

func (bbp *ByteBufferPool) Put(bb *ByteBuffer) {
	bb.Reset()
	bbp.p.Put(bb) // want `unbounded`
}

var decompressedBufPool ByteBufferPool

func getUncompressedReader(r io.Reader, encoding string) (io.Reader, error) {
	switch encoding {
	case "gzip":
		return gzip.NewReader(r)
	case "deflate":
		return zlib.NewReader(r)
	case "", "none":
		return r, nil
	default:
		return nil, fmt.Errorf("unsupported encoding: %q", encoding)
	}
}

// ReadUncompressedData reads the uncompressed body of r (at most
// maxDataSize bytes) and passes it to callback, which must not keep it.
func ReadUncompressedData(r io.Reader, encoding string, maxDataSize int64, callback func(data []byte) error) error {
	reader, err := getUncompressedReader(r, encoding)
	if err != nil {
		return err
	}
	lr := io.LimitReader(reader, maxDataSize+1)

	dbb := decompressedBufPool.Get()
	defer decompressedBufPool.Put(dbb)

	if _, err := dbb.ReadFrom(lr); err != nil {
		return err
	}
	if int64(len(dbb.B)) > maxDataSize {
		return fmt.Errorf("too big data size exceeding %d bytes", maxDataSize)
	}
	return callback(dbb.B)
}
