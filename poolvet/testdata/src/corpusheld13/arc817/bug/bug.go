// Package bug reproduces the shape of Basekick-Labs/arc#817
// (https://github.com/Basekick-Labs/arc/issues/817): request bodies are
// decompressed into a *[]byte taken from a package-level sync.Pool, and
// PooledBuffer.Release truncates the slice and puts it back whatever its
// capacity. One huge payload leaves a huge buffer pinned in the pool (the
// project even exports a "discards" metric for a size guard that was never
// written).
//
// Check: unbounded (a *[]byte grown by a variable-size append loop in one
// function of the package, put back by a Release method with no cap guard).
package bug

import (
	"compress/gzip"
	"io"
	"sync"
)

var decompressBufferPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

// PooledBuffer hands the decompressed bytes to the caller; Release gives
// the storage back.
type PooledBuffer struct {
	bufPtr *[]byte
	Data   []byte
}

// decompress reads the whole gzip stream into a pooled buffer, growing it
// as far as the payload needs.
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

// Release keeps the capacity and puts the buffer back, however big it got.
func (pb *PooledBuffer) Release() {
	if pb.bufPtr != nil {
		*pb.bufPtr = (*pb.bufPtr)[:0]
		decompressBufferPool.Put(pb.bufPtr) // want `unbounded`
		pb.bufPtr = nil
		pb.Data = nil
	}
}

// Ingest decompresses a request body and passes the bytes to handle.
func Ingest(body io.Reader, handle func([]byte) error) error {
	pb, err := decompress(body)
	if err != nil {
		return err
	}
	defer pb.Release()
	return handle(pb.Data)
}
