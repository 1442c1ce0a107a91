// Package bug reproduces the shape of xitongsys/parquet-go#188
// (https://github.com/xitongsys/parquet-go/pull/188): the GZIP compressor
// started taking its gzip.Writer from a sync.Pool, pointing it at a fresh
// output buffer with Reset(res) and putting it back after Close. The idle
// writer in the pool still referenced that output buffer, keeping the last
// compressed page alive until the writer was reused; review asked for
// Reset(nil) before the Put, which the author added.
//
// Check: noreset (a pooled gzip.Writer put back still pointing at the
// buffer it was Reset to)
package bug

import (
	"bytes"
	"compress/gzip"
	"sync"
)

type CompressionCodec int

const (
	CompressionCodec_UNCOMPRESSED CompressionCodec = iota
	CompressionCodec_GZIP
)

type Compressor struct {
	Compress   func(buf []byte) []byte
	Uncompress func(buf []byte) ([]byte, error)
}

var compressors = map[CompressionCodec]*Compressor{}

var gzipWriterPool sync.Pool

func init() {
	gzipWriterPool = sync.Pool{
		New: func() any {
			return gzip.NewWriter(nil)
		},
	}

	compressors[CompressionCodec_GZIP] = &Compressor{
		Compress: func(buf []byte) []byte {
			res := new(bytes.Buffer)
			gzipWriter := gzipWriterPool.Get().(*gzip.Writer)
			gzipWriter.Reset(res)
			gzipWriter.Write(buf)
			gzipWriter.Close()
			gzipWriterPool.Put(gzipWriter) // want `noreset`
			return res.Bytes()
		},
		Uncompress: func(buf []byte) ([]byte, error) {
			rbuf := bytes.NewReader(buf)
			gzipReader, err := gzip.NewReader(rbuf)
			if err != nil {
				return nil, err
			}
			var out bytes.Buffer
			_, err = out.ReadFrom(gzipReader)
			return out.Bytes(), err
		},
	}
}

func Compress(buf []byte, codec CompressionCodec) []byte {
	c, ok := compressors[codec]
	if !ok {
		return buf
	}
	return c.Compress(buf)
}
