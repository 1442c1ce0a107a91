// Source: https://github.com/elastic/elastic-transport-go/pull/62
// (commit 6b78c54216c250f4d4a54f97b64cf3f4b2a0791e, "fix: don't put
// gzipWriters with errors back into the pool", elastictransport/gzip.go).
//
// Bug: pooledGzipCompressor.compress takes a *gzipWriter from its sync.Pool
// and immediately defers the Put. When the pooled wrapper carries the error
// from gzip.NewWriterLevel (err set, writer nil), compress returns that error
// but the deferred Put hands the same broken wrapper back to the pool, so
// every later request that gets it fails the same way: the failed state of
// one user is kept in the pool for the next.
//
// Fix: check writer.err first and only defer the Put after the check, so a
// writer holding an error is dropped instead of being re-pooled.
//
// Check: noreset (the deferred gzipWriterPool.Put runs on the error path and
// re-pools the wrapper that still holds the previous construction error).
package bug

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"
)

type gzipCompressor interface {
	// compress compresses the given io.ReadCloser and returns the gzip compressed data as a bytes.Buffer.
	compress(io.ReadCloser) (*bytes.Buffer, error)
	// collectBuffer collects the given bytes.Buffer for reuse.
	collectBuffer(*bytes.Buffer)
}

type pooledGzipCompressor struct {
	gzipWriterPool   *sync.Pool
	bufferPool       *sync.Pool
	compressionLevel int
}

type gzipWriter struct {
	writer *gzip.Writer
	err    error
}

// newPooledGzipCompressor returns a new pooledGzipCompressor that uses a sync.Pool to reuse gzip.Writers.
func newPooledGzipCompressor(compressionLevel int) gzipCompressor {
	gzipWriterPool := sync.Pool{
		New: func() any {
			writer, err := gzip.NewWriterLevel(io.Discard, compressionLevel)
			return &gzipWriter{
				writer: writer,
				err:    err,
			}
		},
	}

	bufferPool := sync.Pool{
		New: func() any {
			return new(bytes.Buffer)
		},
	}

	return &pooledGzipCompressor{
		gzipWriterPool:   &gzipWriterPool,
		bufferPool:       &bufferPool,
		compressionLevel: compressionLevel,
	}
}

func (pg *pooledGzipCompressor) compress(rc io.ReadCloser) (*bytes.Buffer, error) {
	writer := pg.gzipWriterPool.Get().(*gzipWriter)
	defer pg.gzipWriterPool.Put(writer) // want `noreset`

	if writer.err != nil {
		return nil, fmt.Errorf("failed setting up up compress request body (level %d): %s",
			pg.compressionLevel, writer.err)
	}

	buf := pg.bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	writer.writer.Reset(buf)

	if _, err := io.Copy(writer.writer, rc); err != nil {
		return nil, fmt.Errorf("failed to compress request body: %s", err)
	}
	if err := writer.writer.Close(); err != nil {
		return nil, fmt.Errorf("failed to compress request body (during close): %s", err)
	}
	return buf, nil
}

func (pg *pooledGzipCompressor) collectBuffer(buf *bytes.Buffer) {
	pg.bufferPool.Put(buf)
}
