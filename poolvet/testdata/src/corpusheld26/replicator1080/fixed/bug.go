// Package bug reproduces the shape of cockroachdb/replicator#1080
// (https://github.com/cockroachdb/replicator/pull/1080): the staging table
// compresses mutations with gzip, and the change pools the gzip.Writer and
// gzip.Reader. maybeGunzip takes a reader from the pool, Resets it onto a
// bytes.Reader over the caller's data and defers the Put. The pooled reader
// still refers to that bytes.Reader (and so to the whole mutation payload)
// while it sits idle in the pool; the review pointed out that this keeps
// `data` alive for longer than necessary, and asked whether a reader whose
// Reset failed should go back at all.
//
// Check: noreset. Fixed twin: following the review, a reader whose Reset
// failed is dropped and a used one is zeroed before it goes back.
package bug

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"sync"
)

// gzipMinSize disables compression for reasonable amounts of data.
const gzipMinSize = 1024

var gzipWriterPool = sync.Pool{
	New: func() any { return gzip.NewWriter(io.Discard) },
}

var gzipReaderPool = sync.Pool{
	New: func() any { return new(gzip.Reader) },
}

// maybeGZip compresses the given data if it is larger than gzipMinSize.
func maybeGZip(data []byte) ([]byte, error) {
	if len(data) <= gzipMinSize {
		return data, nil
	}

	var buf bytes.Buffer
	gzWriter := gzipWriterPool.Get().(*gzip.Writer)
	gzWriter.Reset(&buf)
	defer func() {
		gzWriter.Reset(io.Discard)
		gzipWriterPool.Put(gzWriter)
	}()

	if _, err := gzWriter.Write(data); err != nil {
		return nil, errors.Join(errors.New("gzip write"), err)
	}
	if err := gzWriter.Close(); err != nil {
		return nil, errors.Join(errors.New("gzip close"), err)
	}
	if buf.Len() < len(data) {
		return buf.Bytes(), nil
	}
	return data, nil
}

// maybeGunzip looks for GZip magic numbers and decompresses the data if
// they're present. The magic numbers would not be present in JSON.
func maybeGunzip(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}

	gzReader := gzipReaderPool.Get().(*gzip.Reader)
	if err := gzReader.Reset(bytes.NewReader(data)); err != nil {
		// The reader is in an indeterminate state; let it be collected.
		return nil, errors.Join(errors.New("gzip reset"), err)
	}
	defer func() {
		// Drop every reference to the caller's data before pooling.
		*gzReader = gzip.Reader{}
		gzipReaderPool.Put(gzReader)
	}()
	return io.ReadAll(gzReader)
}
