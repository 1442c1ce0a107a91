package benchmarks

import (
	"bytes"
	"compress/gzip"
	"io"
)

// gzip compresses a small payload (about 2 KB of log lines) with a
// gzip.Writer at the default level. A new writer costs about 800 KB of
// compressor state and far more time than the compression itself; a
// reused one is Reset onto the next destination.
var _ = register(&Workload{
	Name:      "gzip",
	Doc:       "compress a small payload with a reused gzip.Writer (Reset on reuse)",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: kit[*gzip.Writer]{
		new: func() *gzip.Writer { return gzip.NewWriter(io.Discard) },
		// Put resets onto io.Discard so the pooled writer does not keep
		// the last destination alive; Get's caller resets it again.
		reset:   func(z *gzip.Writer) { z.Reset(io.Discard) },
		maxIdle: 16,
	}.strategies(gzipOp),
})

// gzipPayloads are the inputs compressed in turn.
var gzipPayloads = func() [][]byte {
	p := make([][]byte, 3)
	for k := range p {
		var b bytes.Buffer
		for i := range 18 + 2*k {
			writeLogLine(&b, i*(k+1))
		}
		p[k] = b.Bytes()
	}
	return p
}()

// gzipOp compresses payload i%len into a buffer owned by the operation
// (reused by every strategy alike) and writes the compressed bytes to out.
func gzipOp(src source[*gzip.Writer], out io.Writer) (func(int), func()) {
	var dst bytes.Buffer
	return func(i int) {
		dst.Reset()
		z := src.Get()
		z.Reset(&dst)
		if _, err := z.Write(gzipPayloads[i%len(gzipPayloads)]); err != nil {
			panic("gzip: " + err.Error())
		}
		if err := z.Close(); err != nil {
			panic("gzip: " + err.Error())
		}
		src.Put(z)
		if out != nil {
			out.Write(dst.Bytes())
		}
	}, nil
}
