// Package bug reproduces the shape of maximhq/bifrost#2510
// (https://github.com/maximhq/bifrost/pull/2510, review thread on
// framework/objectstore/gzip.go): the object-store helper takes a
// *gzip.Writer from a sync.Pool, points it at a fresh bytes.Buffer with
// Reset(&buf), compresses, closes, and puts the writer back while it still
// refers to that buffer, whose bytes the function returns. The review
// flagged that Put (the repo's own decompression helpers detach with
// Reset(nil) before pooling); the idle writer keeps the caller's
// compressed payload alive until the writer is reused.
//
// Check: noreset (a pooled compress writer Reset onto a fresh buffer whose
// memory is returned, put back without detaching it).
package bug

import (
	"bytes"
	"compress/gzip"
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

	gzipWriterPool.Put(w) // want `noreset`
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
