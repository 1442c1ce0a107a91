// Package fixed is the obvious fix of Basekick-Labs/arc#817
// (https://github.com/Basekick-Labs/arc/issues/817), the guard the issue
// says the code lacks: buffers grown past a cap are dropped instead of put
// back.
package fixed

import (
	"compress/gzip"
	"io"
	"sync"
)

// maxPooledDecompressBuffer is the largest capacity kept in the pool.
const maxPooledDecompressBuffer = 4 << 20

var decompressBufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

type PooledBuffer struct {
	bufPtr *[]byte
	Data   []byte
}

func putDecompressBuffer(bp *[]byte) {
	if cap(*bp) > maxPooledDecompressBuffer {
		return
	}
	*bp = (*bp)[:0]
	decompressBufferPool.Put(bp)
}

func decompress(r io.Reader) (*PooledBuffer, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	bp := decompressBufferPool.Get().(*[]byte)
	buf := (*bp)[:0]
	var chunk [32 << 10]byte
	for {
		n, err := zr.Read(chunk[:])
		buf = append(buf, chunk[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err // the buffer is dropped, not put back
		}
	}
	*bp = buf
	return &PooledBuffer{bufPtr: bp, Data: buf}, nil
}

func (pb *PooledBuffer) Release() {
	if pb.bufPtr != nil {
		putDecompressBuffer(pb.bufPtr)
		pb.bufPtr = nil
		pb.Data = nil
	}
}

func Ingest(body io.Reader, handle func([]byte) error) error {
	pb, err := decompress(body)
	if err != nil {
		return err
	}
	defer pb.Release()
	return handle(pb.Data)
}
