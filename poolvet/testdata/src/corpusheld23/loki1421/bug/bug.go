// Package bug reproduces the shape of grafana/loki#1421
// (https://github.com/grafana/loki/pull/1421, commit 9979321c "Don't pool LZ4
// readers that read big blocks"): chunk decompression takes LZ4 readers from
// LZ4Pool.readers (a sync.Pool). The reader sizes its internal buffer from the
// block size announced in the stream header, so reading a chunk written with
// 4MB blocks grows the reader's buffer to twice that. PutReader puts every
// reader back unconditionally, so a few big-block chunks leave many 8MB readers
// pinned in the pool. The fix wraps the reader to remember the largest block it
// saw and drops readers whose block size exceeds the pool's buffer size.
// Check: unbounded (the report belongs on the Put in PutReader).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

// blockReader is a stand-in for lz4.Reader: it reads length-prefixed blocks and
// keeps a decode buffer sized from the block size in the stream header.
type blockReader struct {
	src          io.Reader
	BlockMaxSize int
	OnBlockDone  func(size int)
	buf          []byte
	data         []byte
	headerRead   bool
}

func newBlockReader(src io.Reader) *blockReader {
	return &blockReader{src: src}
}

// Reset makes z read from src, keeping the decode buffer.
func (z *blockReader) Reset(src io.Reader) {
	z.src = src
	z.data = nil
	z.headerRead = false
	z.BlockMaxSize = 0
}

func (z *blockReader) readHeader() error {
	var hdr [4]byte
	if _, err := io.ReadFull(z.src, hdr[:]); err != nil {
		return err
	}
	z.BlockMaxSize = int(binary.LittleEndian.Uint32(hdr[:]))
	if z.BlockMaxSize <= 0 || z.BlockMaxSize > 1<<22 {
		return errors.New("invalid block size")
	}
	if cap(z.buf) < 2*z.BlockMaxSize {
		z.buf = make([]byte, 2*z.BlockMaxSize)
	}
	z.headerRead = true
	return nil
}

func (z *blockReader) Read(p []byte) (int, error) {
	if !z.headerRead {
		if err := z.readHeader(); err != nil {
			return 0, err
		}
	}
	if len(z.data) == 0 {
		var lb [4]byte
		if _, err := io.ReadFull(z.src, lb[:]); err != nil {
			return 0, err
		}
		n := int(binary.LittleEndian.Uint32(lb[:]))
		if n > z.BlockMaxSize {
			return 0, errors.New("block too large")
		}
		z.data = z.buf[:n]
		if _, err := io.ReadFull(z.src, z.data); err != nil {
			return 0, err
		}
		if z.OnBlockDone != nil {
			z.OnBlockDone(n)
		}
	}
	n := copy(p, z.data)
	z.data = z.data[n:]
	return n, nil
}

// ReaderPool hands out decompressing readers.
type ReaderPool interface {
	GetReader(io.Reader) io.Reader
	PutReader(io.Reader)
}

// LZ4Pool is the LZ4 compression pool.
type LZ4Pool struct {
	readers    sync.Pool
	bufferSize int // 1<<16 .. 1<<22
}

var (
	LZ4_64k = LZ4Pool{bufferSize: 1 << 16}
	LZ4_4M  = LZ4Pool{bufferSize: 1 << 22}
)

// GetReader gets or creates a reader and resets it to read from src.
func (pool *LZ4Pool) GetReader(src io.Reader) io.Reader {
	if r := pool.readers.Get(); r != nil {
		reader := r.(*blockReader)
		reader.Reset(src)
		return reader
	}
	return newBlockReader(src)
}

// PutReader places a reader back in the pool.
func (pool *LZ4Pool) PutReader(reader io.Reader) {
	pool.readers.Put(reader) // want `unbounded`
}

// Decompress reads a whole chunk through a pooled reader.
func Decompress(p ReaderPool, chunk io.Reader, dst []byte) ([]byte, error) {
	r := p.GetReader(chunk)
	defer p.PutReader(r)
	buf := make([]byte, 4096)
	for {
		n, err := r.Read(buf)
		dst = append(dst, buf[:n]...)
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}
