// Package bug reproduces the shape of open-telemetry/opentelemetry-collector#15321
// (https://github.com/open-telemetry/opentelemetry-collector/pull/15321, issues
// #15237 and #15320): the gRPC snappy compressor pooled its own wrapper objects.
// Each wrapper carried a sync.Once, and Close (or Read on error) put the wrapper
// back into the pool from inside once.Do. The Put happens while Do still owns the
// Once: another goroutine can Get the wrapper and overwrite z.once = sync.Once{}
// before Do unlocks and marks it done, so the Once of an object that is already
// back in the pool is written after the Put ("sync: unlock of unlocked mutex",
// memory corruption). The fix pools only the inner codec and gives every call a
// fresh wrapper.
// Check: useafterput (the wrapper's once field is used by Do after the Put done
// in its callback); report at the once.Do calls in Close and Read.
// (bufio stands in for the snappy writer and reader.)
package bug

import (
	"bufio"
	"io"
	"sync"
)

type compressor struct {
	poolCompressor   sync.Pool
	poolDecompressor sync.Pool
}

func newCompressor() *compressor {
	c := &compressor{}
	c.poolCompressor.New = func() any {
		return &writer{
			Writer: bufio.NewWriter(io.Discard),
			pool:   &c.poolCompressor,
		}
	}
	return c
}

func (c *compressor) Compress(w io.Writer) (io.WriteCloser, error) {
	z := c.poolCompressor.Get().(*writer)
	z.once = sync.Once{}
	z.Reset(w)
	return z, nil
}

func (c *compressor) Decompress(r io.Reader) (io.Reader, error) {
	z, ok := c.poolDecompressor.Get().(*reader)
	if !ok {
		return &reader{
			Reader: bufio.NewReader(r),
			pool:   &c.poolDecompressor,
		}, nil
	}
	z.once = sync.Once{}
	z.Reset(r)
	return z, nil
}

func (c *compressor) Name() string { return "snappy" }

type writer struct {
	*bufio.Writer
	pool *sync.Pool
	once sync.Once
}

func (z *writer) Close() error {
	err := z.Writer.Flush()
	z.once.Do(func() { z.pool.Put(z) }) // want `useafterput`
	return err
}

type reader struct {
	*bufio.Reader
	pool *sync.Pool
	once sync.Once
}

func (z *reader) Read(p []byte) (int, error) {
	n, err := z.Reader.Read(p)
	if err != nil {
		z.once.Do(func() { z.pool.Put(z) }) // want `useafterput`
	}
	return n, err
}
