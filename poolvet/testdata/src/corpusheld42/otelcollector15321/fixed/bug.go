// Package bug reproduces the shape of open-telemetry/opentelemetry-collector#15321
// (https://github.com/open-telemetry/opentelemetry-collector/pull/15321, issues
// #15237 and #15320): fixed twin. Only the inner writer and reader are pooled;
// each Compress/Decompress call gets a fresh wrapper, and Close/Read put the
// inner codec back once and drop the wrapper's reference to it.
// Check: useafterput (none here).
// (bufio stands in for the snappy writer and reader.)
package bug

import (
	"bufio"
	"io"
	"sync"
)

var (
	writerPool = sync.Pool{
		New: func() any {
			return bufio.NewWriter(io.Discard)
		},
	}
	readerPool = sync.Pool{
		New: func() any {
			return bufio.NewReader(nil)
		},
	}
)

type compressor struct{}

func newCompressor() *compressor {
	return &compressor{}
}

func (*compressor) Compress(w io.Writer) (io.WriteCloser, error) {
	z := writerPool.Get().(*bufio.Writer)
	z.Reset(w)
	return &writer{Writer: z}, nil
}

func (*compressor) Decompress(r io.Reader) (io.Reader, error) {
	z := readerPool.Get().(*bufio.Reader)
	z.Reset(r)
	return &reader{Reader: z}, nil
}

func (*compressor) Name() string { return "snappy" }

type writer struct {
	*bufio.Writer
}

func (z *writer) Close() error {
	if z.Writer == nil {
		return nil
	}
	err := z.Writer.Flush()
	z.Writer.Reset(io.Discard)
	writerPool.Put(z.Writer)
	z.Writer = nil
	return err
}

type reader struct {
	*bufio.Reader
}

func (z *reader) Read(p []byte) (int, error) {
	if z.Reader == nil {
		return 0, io.EOF
	}
	n, err := z.Reader.Read(p)
	if err != nil {
		z.Reader.Reset(nil)
		readerPool.Put(z.Reader)
		z.Reader = nil
	}
	return n, err
}
