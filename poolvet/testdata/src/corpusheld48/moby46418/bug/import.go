// Source: https://github.com/moby/moby/pull/46418
// (commit 1cb45e582c2140daa28551941d4291cbd530437e, "c8d/import: Don't close
// compressed stream twice", daemon/containerd/image_import.go; the pool side is
// pkg/archive.CompressStream and pkg/pools.BufioWriterPool).
//
// Bug: compressAndWriteBlob gets a compressor from archive.CompressStream,
// which takes a *bufio.Writer from pools.BufioWriter32KPool and wraps it with
// NewWriteCloserWrapper, whose closer flushes, closes the inner writer and
// Puts the bufio.Writer back into the pool. The function both deferred
// compressor.Close() and called compressor.Close() explicitly after the copy,
// so the closer ran twice and the same *bufio.Writer was put into the pool
// twice (two later Gets share one buffer).
//
// Fix: the deferred Close was removed; there is no error return between
// CompressStream and the explicit Close.
//
// Check: doubleput (the deferred compressor.Close() runs the pool-returning
// closer a second time, after the explicit compressor.Close())
package bug

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"sync"
)

const buffer32K = 32 * 1024

// BufioWriter32KPool is a pool which returns bufio.Writer with a 32K buffer.
var BufioWriter32KPool = newBufioWriterPoolWithSize(buffer32K)

// BufioWriterPool is a bufio writer that uses sync.Pool.
type BufioWriterPool struct {
	pool sync.Pool
}

func newBufioWriterPoolWithSize(size int) *BufioWriterPool {
	return &BufioWriterPool{
		pool: sync.Pool{
			New: func() interface{} { return bufio.NewWriterSize(nil, size) },
		},
	}
}

// Get returns a bufio.Writer which writes to w. The buffer size is that of the pool.
func (bufPool *BufioWriterPool) Get(w io.Writer) *bufio.Writer {
	buf := bufPool.pool.Get().(*bufio.Writer)
	buf.Reset(w)
	return buf
}

// Put puts the bufio.Writer back into the pool.
func (bufPool *BufioWriterPool) Put(b *bufio.Writer) {
	b.Reset(nil)
	bufPool.pool.Put(b)
}

// NewWriteCloserWrapper returns a wrapper which puts the bufio.Writer back
// into the pool and closes the writer if it's an io.Writecloser.
func (bufPool *BufioWriterPool) NewWriteCloserWrapper(buf *bufio.Writer, w io.Writer) io.WriteCloser {
	return NewWriteCloserWrapper(w, func() error {
		buf.Flush()
		if writeCloser, ok := w.(io.WriteCloser); ok {
			writeCloser.Close()
		}
		bufPool.Put(buf)
		return nil
	})
}

type writeCloserWrapper struct {
	io.Writer
	closer func() error
}

func (r *writeCloserWrapper) Close() error {
	return r.closer()
}

// NewWriteCloserWrapper returns a new io.WriteCloser.
func NewWriteCloserWrapper(r io.Writer, closer func() error) io.WriteCloser {
	return &writeCloserWrapper{
		Writer: r,
		closer: closer,
	}
}

// Compression is the state represents if compressed or not.
type Compression int

const (
	Uncompressed Compression = iota
	Gzip
)

// CompressStream compresses the dest with specified compression algorithm.
func CompressStream(dest io.Writer, compression Compression) (io.WriteCloser, error) {
	p := BufioWriter32KPool
	buf := p.Get(dest)
	switch compression {
	case Uncompressed:
		writeBufWrapper := p.NewWriteCloserWrapper(buf, buf)
		return writeBufWrapper, nil
	case Gzip:
		gzWriter := gzip.NewWriter(dest)
		writeBufWrapper := p.NewWriteCloserWrapper(buf, gzWriter)
		return writeBufWrapper, nil
	default:
		return nil, fmt.Errorf("unsupported compression format %d", compression)
	}
}

// Store is the part of the containerd content store used here.
type Store interface {
	WriteBlob(ctx context.Context, ref string, r io.Reader, mediaType string) error
}

// compressAndWriteBlob compresses the uncompressedReader and stores it in the content store.
func compressAndWriteBlob(ctx context.Context, cs Store, compression Compression, mediaType string, uncompressedLayerReader io.Reader) ([]byte, []byte, error) {
	pr, pw := io.Pipe()
	defer pr.Close()
	defer pw.Close()

	compressor, err := CompressStream(pw, compression)
	if err != nil {
		return nil, nil, err
	}
	defer compressor.Close() // want `doubleput`

	writeChan := make(chan []byte)
	// Start copying the blob to the content store from the pipe.
	go func() {
		dgst, err := writeBlobAndReturnDigest(ctx, cs, mediaType, pr)
		pr.CloseWithError(err)
		writeChan <- dgst
	}()

	// Copy archive to the pipe and tee it to a digester.
	uncompressedDigester := sha256.New()
	readFromInputAndDigest := io.TeeReader(uncompressedLayerReader, uncompressedDigester)
	_, err = io.Copy(compressor, readFromInputAndDigest)
	compressor.Close()
	pw.CloseWithError(err)

	compressedDigest := <-writeChan
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, nil, fmt.Errorf("cancelled: %w", err)
		}
		return nil, nil, err
	}

	return compressedDigest, uncompressedDigester.Sum(nil), err
}

// writeBlobAndReturnDigest writes a blob to the content store and returns the digest.
func writeBlobAndReturnDigest(ctx context.Context, cs Store, mt string, reader io.Reader) ([]byte, error) {
	var digester hash.Hash = sha256.New()
	if err := cs.WriteBlob(ctx, "import-blob", io.TeeReader(reader, digester), mt); err != nil {
		return nil, err
	}
	return digester.Sum(nil), nil
}
