// Source: https://github.com/elastic/elastic-transport-go/pull/62
// (commit 6b78c54216c250f4d4a54f97b64cf3f4b2a0791e, "fix: don't put
// gzipWriters with errors back into the pool", elastictransport/gzip.go).
//
// Fixed twin: the writer.err check comes first and the deferred Put is only
// registered after it, so an errored gzipWriter is never put back.
//
// Check: noreset (no report expected).
package fixed

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
	if writer.err != nil {
		return nil, fmt.Errorf("failed setting up up compress request body (level %d): %s",
			pg.compressionLevel, writer.err)
	}
	defer pg.gzipWriterPool.Put(writer)

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
