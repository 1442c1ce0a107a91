// Package fixed is the fixed twin of parquetgo188: the writer is Reset to
// nil before it goes back to the pool, so the idle writer holds no output
// buffer (xitongsys/parquet-go#188 after review).
package fixed

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
			gzipWriter.Reset(nil)
			gzipWriterPool.Put(gzipWriter)
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
