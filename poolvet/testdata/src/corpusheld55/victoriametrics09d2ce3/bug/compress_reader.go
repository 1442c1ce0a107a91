// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/09d2ce36e86dfa113495b605b7908c17914fcad2
// ("lib/protoparser/protoparserutil: do not store byte slices with more than
// 75% of unused space in the pool"; for
// https://github.com/VictoriaMetrics/VictoriaLogs/issues/1042).
//
// Bug: readUncompressedData decompresses every zstd/snappy request body into
// dbb, a *ByteBuffer from decompressedBufPool, and returns it with
// `defer decompressedBufPool.Put(dbb)` without any size limit. dbb.B grows to
// the biggest decompressed request ever seen (up to -maxDataSize), and the
// pool keeps such buffers, so a small share of big requests makes every
// pooled buffer big and increases memory usage.
//
// Fix: the deferred Put is wrapped in a closure that drops dbb when
// cap(dbb.B) > 64KiB and more than 75% of it was unused last time; the
// existing guard in readFull is tightened to the same rule.
//
// Check: unbounded (decompressedBufPool.Put(dbb) puts back a buffer grown to
// the decompressed request size with no size limit)
package bug

import (
	"fmt"
	"io"
	"sync"
)

// ---- lib/bytesutil ----

// ByteBuffer implements a simple byte buffer.
type ByteBuffer struct {
	// B is the underlying byte slice.
	B []byte
}

// Reset resets bb.
func (bb *ByteBuffer) Reset() {
	bb.B = bb.B[:0]
}

// ReadFrom reads all the data from r to bb until EOF.
func (bb *ByteBuffer) ReadFrom(r io.Reader) (int64, error) {
	b := bb.B
	bLen := len(b)
	if cap(b) < 4*1024 {
		b = append(b[:cap(b)], make([]byte, 4*1024-cap(b))...)
	}
	offset := bLen
	for {
		if free := cap(b) - offset; free < (cap(b) / 16) {
			n := int(1.3 * float64(cap(b)))
			b = append(b[:cap(b)], make([]byte, n-cap(b))...)
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

// Get obtains a ByteBuffer from bbp.
func (bbp *ByteBufferPool) Get() *ByteBuffer {
	bbv := bbp.p.Get()
	if bbv == nil {
		return &ByteBuffer{}
	}
	return bbv.(*ByteBuffer)
}

// Put puts bb into bbp.
func (bbp *ByteBufferPool) Put(bb *ByteBuffer) {
	bb.Reset()
	bbp.p.Put(bb)
}

// ---- lib/flagutil ----

// Bytes is a flag holding a size in bytes.
type Bytes struct {
	Name string
	N    int64
}

// ---- lib/protoparser/protoparserutil ----

func readUncompressedData(r io.Reader, maxDataSize *Bytes, decompress func(dst, src []byte) ([]byte, error), callback func(data []byte) error) error {
	return readFull(r, maxDataSize, func(data []byte) error {
		dbb := decompressedBufPool.Get()
		defer decompressedBufPool.Put(dbb) // want `unbounded`

		var err error
		dbb.B, err = decompress(dbb.B, data)
		if err != nil {
			return fmt.Errorf("cannot decompress data: %w", err)
		}
		if int64(len(dbb.B)) > maxDataSize.N {
			return fmt.Errorf("too big decompressed data size exceeding -%s=%d bytes", maxDataSize.Name, maxDataSize.N)
		}

		return callback(dbb.B)
	})
}

func readFull(r io.Reader, maxDataSize *Bytes, callback func(data []byte) error) error {
	lr := io.LimitReader(r, maxDataSize.N+1)

	bb := fullReaderBufPool.Get()
	defer func() {
		if len(bb.B) > 1024*1024 && cap(bb.B) > 4*len(bb.B) {
			// Do not store too big bb to the pool if only a small part of the buffer is used last time.
			// This should reduce memory waste.
			return
		}
		fullReaderBufPool.Put(bb)
	}()

	if _, err := bb.ReadFrom(lr); err != nil {
		return err
	}

	if int64(len(bb.B)) > maxDataSize.N {
		return fmt.Errorf("too big data size exceeding -%s=%d bytes", maxDataSize.Name, maxDataSize.N)
	}

	return callback(bb.B)
}

var fullReaderBufPool ByteBufferPool

var decompressedBufPool ByteBufferPool
