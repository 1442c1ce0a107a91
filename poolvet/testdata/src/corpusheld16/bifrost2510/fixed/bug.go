// Package fixed is maximhq/bifrost#2510's gzip helper with the obvious
// fix: the writer is detached from the returned buffer before it goes
// back to the pool.
package fixed

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"
)

var gzipWriterPool = sync.Pool{
	New: func() any { return gzip.NewWriter(nil) },
}

// gzipBytes returns data compressed with gzip.
func gzipBytes(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := gzipWriterPool.Get().(*gzip.Writer)
	w.Reset(&buf)

	if _, err := w.Write(data); err != nil {
		// Don't return the writer to the pool on error.
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}

	w.Reset(io.Discard)
	gzipWriterPool.Put(w)
	return buf.Bytes(), nil
}

// PutObject compresses body before handing it to the store.
func PutObject(store func(key string, body []byte) error, key string, body []byte) error {
	z, err := gzipBytes(body)
	if err != nil {
		return err
	}
	return store(key, z)
}
