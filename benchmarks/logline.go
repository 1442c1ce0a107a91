package benchmarks

import (
	"bytes"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/poolkit/pool/bytepool"
	"github.com/valyala/bytebufferpool"
)

// logline formats a log line into a buffer and writes it out: the example
// in sync.Pool's documentation. The line is about 110 bytes, so a new
// bytes.Buffer grows twice per line.
var _ = register(&Workload{
	Name:      "logline",
	Doc:       "format a log line into a buffer (the sync.Pool doc example)",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool", "bytepool"},
	Strategies: kit[*bytes.Buffer]{
		new:     func() *bytes.Buffer { return new(bytes.Buffer) },
		reset:   (*bytes.Buffer).Reset,
		maxIdle: 64,
	}.strategies(loglineOp,
		Strategy{Name: "bytebufferpool", Doc: "valyala/bytebufferpool's calibrating pool of ByteBuffer", New: loglineByteBufferPool,
			GivesUp: givesUpByteBufferPool},
		Strategy{Name: "bytepool", Doc: "bytepool.Buffer from a private bytepool.Pool, Free after use", New: loglineBytepool},
	),
})

// lineWriter is what a log line is formatted into: bytes.Buffer and the
// pooled buffers of the other libraries all have these methods.
type lineWriter interface {
	io.Writer
	io.StringWriter
	io.ByteWriter
}

// loglineEpoch is the timestamp of line 0; line i is i seconds later, so
// output is deterministic.
var loglineEpoch = time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)

// writeLogLine formats line number i into b.
func writeLogLine(b lineWriter, i int) {
	var scratch [32]byte
	b.Write(loglineEpoch.Add(time.Duration(i)*time.Second).AppendFormat(scratch[:0], time.RFC3339))
	b.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items/")
	b.Write(strconv.AppendInt(scratch[:0], int64(i%10000), 10))
	b.WriteString(" status=200 bytes=")
	b.Write(strconv.AppendInt(scratch[:0], int64(512+i%4096), 10))
	b.WriteByte('\n')
}

// dest is where an operation's output goes: out in tests, io.Discard in
// measurements (an interface call, so the written bytes escape as they
// would to a real file).
func dest(out io.Writer) io.Writer {
	if out == nil {
		return io.Discard
	}
	return out
}

func loglineOp(src source[*bytes.Buffer], out io.Writer) (func(int), func()) {
	w := dest(out)
	return func(i int) {
		b := src.Get()
		writeLogLine(b, i)
		w.Write(b.Bytes())
		src.Put(b)
	}, nil
}

// loglineByteBufferPool uses a private bytebufferpool.Pool (not the
// package default, so measurements do not share it). The library does
// not count misses; a ByteBuffer with no capacity is a new one.
func loglineByteBufferPool(out io.Writer) Instance {
	p := new(bytebufferpool.Pool)
	var misses atomic.Uint64
	w := dest(out)
	return Instance{
		Op: func(i int) {
			b := p.Get()
			if cap(b.B) == 0 {
				misses.Add(1)
			}
			writeLogLine(b, i)
			w.Write(b.B)
			p.Put(b)
		},
		Misses: misses.Load,
	}
}

// loglineBytepool uses a private bytepool.Pool. Its hit ratio is that of
// the Buffers' storage, from the pool's own counters.
func loglineBytepool(out io.Writer) Instance {
	p := new(bytepool.Pool)
	w := dest(out)
	return Instance{
		Op: func(i int) {
			b := p.GetBuffer()
			writeLogLine(b, i)
			w.Write(b.Bytes())
			b.Free()
		},
		Misses: func() uint64 { return p.Stats().Misses },
		Gets:   func() uint64 { return p.Stats().Gets },
	}
}
