package bytepoolcmp

import (
	"bytes"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	libp2p "github.com/libp2p/go-buffer-pool"
	"github.com/poolkit/pool/bytepool"
	"github.com/valyala/bytebufferpool"
	"google.golang.org/grpc/mem"
)

// logUniformSizes returns n sizes drawn log-uniformly from [lo, hi], the
// same for every run, and their mean.
func logUniformSizes(n, lo, hi int) ([]int, float64) {
	r := rand.New(rand.NewPCG(3, 14))
	span := math.Log2(float64(hi) / float64(lo))
	sizes := make([]int, n)
	sum := 0
	for i := range sizes {
		sizes[i] = int(float64(lo) * math.Exp2(span*r.Float64()))
		sum += sizes[i]
	}
	return sizes, float64(sum) / float64(n)
}

// prepare warms a pool with every size of the log-uniform sequence from
// 16 B to 64 KiB and returns the sequence and a function that reports the
// mean cap/len of the buffers get returned for those sizes (metric
// "cap/len"; call it after the timed loop, which clears metrics reported
// before it). B is what the pool hands out ([]byte, or *[]byte for
// grpc/mem).
func prepare[B any](b *testing.B, get func(int) B, data func(B) []byte, put func(B)) ([]int, func()) {
	sizes, mean := logUniformSizes(1<<12, 16, 64<<10)
	var ratio float64
	for _, n := range sizes {
		buf := get(n)
		ratio += float64(cap(data(buf))) / float64(n)
		put(buf)
	}
	b.SetBytes(int64(mean))
	b.ReportAllocs()
	return sizes, func() { b.ReportMetric(ratio/float64(len(sizes)), "cap/len") }
}

func same(b []byte) []byte { return b }

func deref(b *[]byte) []byte { return *b }

// BenchmarkGetPut is the size-classed pool's hot path: Get(n) and Put over
// log-uniform sizes 16 B..64 KiB on one goroutine, with every pool warm.
// Each loop calls its pool directly, as a program would.
func BenchmarkGetPut(b *testing.B) {
	const mask = 1<<12 - 1
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		sizes, report := prepare(b, p.Get, same, p.Put)
		for i := 0; b.Loop(); i++ {
			p.Put(p.Get(sizes[i&mask]))
		}
		report()
	})
	b.Run("impl=libp2p", func(b *testing.B) {
		var p libp2p.BufferPool
		sizes, report := prepare(b, p.Get, same, p.Put)
		for i := 0; b.Loop(); i++ {
			p.Put(p.Get(sizes[i&mask]))
		}
		report()
	})
	b.Run("impl=grpc-mem-default", func(b *testing.B) {
		p := mem.DefaultBufferPool() // tiers 256 B, 4, 16, 32 KiB, 1 MiB
		sizes, report := prepare(b, p.Get, deref, p.Put)
		for i := 0; b.Loop(); i++ {
			p.Put(p.Get(sizes[i&mask]))
		}
		report()
	})
	b.Run("impl=grpc-mem-pow2", func(b *testing.B) {
		p, err := mem.NewBinaryTieredBufferPool(4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
		if err != nil {
			b.Fatal(err)
		}
		sizes, report := prepare(b, p.Get, deref, p.Put)
		for i := 0; b.Loop(); i++ {
			p.Put(p.Get(sizes[i&mask]))
		}
		report()
	})
	b.Run("impl=make", func(b *testing.B) {
		sizes, report := prepare(b, func(n int) []byte { return make([]byte, n) }, same, func([]byte) {})
		for i := 0; b.Loop(); i++ {
			sinkBuf = make([]byte, sizes[i&mask])
		}
		report()
	})
}

var sinkBuf []byte

// BenchmarkGetPutParallel is BenchmarkGetPut from GOMAXPROCS goroutines:
// contention on the pools' shared state.
func BenchmarkGetPutParallel(b *testing.B) {
	sizes, mean := logUniformSizes(1<<12, 16, 64<<10)
	run := func(b *testing.B, get func(int) []byte, put func([]byte)) {
		b.SetBytes(int64(mean))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				put(get(sizes[i&(len(sizes)-1)]))
			}
		})
	}
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		run(b, p.Get, p.Put)
	})
	b.Run("impl=libp2p", func(b *testing.B) {
		var p libp2p.BufferPool
		run(b, p.Get, p.Put)
	})
}

// logTime is the timestamp of every log line.
var logTime = time.Date(2026, 11, 21, 7, 20, 30, 123456789, time.UTC)

// The log line functions format the same ~130-byte line with the same calls;
// only the buffer type differs (a shared interface would make every call
// indirect and move the scratch array to the heap).

func logLineBytepool(b *bytepool.Buffer, i int) {
	var num [40]byte
	b.Write(logTime.AppendFormat(num[:0], time.RFC3339Nano))
	b.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items status=")
	b.Write(strconv.AppendInt(num[:0], 200, 10))
	b.WriteString(" dur_us=")
	b.Write(strconv.AppendInt(num[:0], int64(i&1023), 10))
	b.WriteByte('\n')
}

func logLineByteBuffer(b *bytebufferpool.ByteBuffer, i int) {
	var num [40]byte
	b.Write(logTime.AppendFormat(num[:0], time.RFC3339Nano))
	b.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items status=")
	b.Write(strconv.AppendInt(num[:0], 200, 10))
	b.WriteString(" dur_us=")
	b.Write(strconv.AppendInt(num[:0], int64(i&1023), 10))
	b.WriteByte('\n')
}

func logLineBytesBuffer(b *bytes.Buffer, i int) {
	var num [40]byte
	b.Write(logTime.AppendFormat(num[:0], time.RFC3339Nano))
	b.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items status=")
	b.Write(strconv.AppendInt(num[:0], 200, 10))
	b.WriteString(" dur_us=")
	b.Write(strconv.AppendInt(num[:0], int64(i&1023), 10))
	b.WriteByte('\n')
}

var sink int

// BenchmarkBufferLogLine takes a buffer, formats a log line into it and
// gives it back: the sync.Pool documentation's example.
func BenchmarkBufferLogLine(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := p.GetBuffer()
			logLineBytepool(buf, i)
			sink += buf.Len()
			buf.Free()
		}
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		var p bytebufferpool.Pool
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := p.Get()
			logLineByteBuffer(buf, i)
			sink += buf.Len()
			p.Put(buf)
		}
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := p.Get().(*bytes.Buffer)
			logLineBytesBuffer(buf, i)
			sink += buf.Len()
			buf.Reset()
			p.Put(buf)
		}
	})
}

// BenchmarkBufferRoundTrip is BenchmarkBufferLogLine without the
// formatting: take a buffer, write one byte, give it back. It isolates what
// the pools cost per use, which the log line adds to its ~70 ns of
// formatting.
func BenchmarkBufferRoundTrip(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		b.ReportAllocs()
		for b.Loop() {
			buf := p.GetBuffer()
			buf.WriteByte('x')
			sink += buf.Len()
			buf.Free()
		}
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		var p bytebufferpool.Pool
		b.ReportAllocs()
		for b.Loop() {
			buf := p.Get()
			buf.WriteByte('x')
			sink += buf.Len()
			p.Put(buf)
		}
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		b.ReportAllocs()
		for b.Loop() {
			buf := p.Get().(*bytes.Buffer)
			buf.WriteByte('x')
			sink += buf.Len()
			buf.Reset()
			p.Put(buf)
		}
	})
}

// Bloat workload: each goroutine writes bloatOps buffers per round, one of
// them 4 MiB and the rest log-uniform from 64 B to 4 KiB.
const (
	bloatGoroutines = 8
	bloatOps        = 100
	bloatHuge       = 4 << 20
)

var bloatData = bytes.Repeat([]byte("0123456789abcdef"), bloatHuge/16)

// bloat runs b.N rounds of the bloat workload with a writer that newPool
// makes, then runs one GC cycle and reports the heap still live compared
// with before the pool existed, as "retained-MiB". write(i, data) writes
// data into a pooled buffer and gives it back.
func bloat(b *testing.B, newPool func() (write func(data []byte), keep func())) {
	sizes, _ := logUniformSizes(bloatOps, 64, 4<<10)
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	write, keep := newPool()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		for g := range bloatGoroutines {
			wg.Go(func() {
				for i, n := range sizes {
					if i == g*bloatOps/bloatGoroutines {
						n = bloatHuge
					}
					write(bloatData[:n])
				}
			})
		}
		wg.Wait()
	}
	b.StopTimer()
	runtime.GC() // the work has stopped: one GC cycle
	runtime.ReadMemStats(&ms)
	keep() // the pool is still referenced here
	b.ReportMetric(float64(int64(ms.HeapAlloc)-int64(before))/(1<<20), "retained-MiB")
}

// BenchmarkBloat: mostly small writes, 1% of 4 MiB, from 8 goroutines. A
// pool that keeps every buffer it is given ends up holding 4 MiB buffers
// (golang/go#23199); retained-MiB shows what stays after one GC cycle.
func BenchmarkBloat(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		bloat(b, func() (func([]byte), func()) {
			p := new(bytepool.Pool)
			return func(data []byte) {
				buf := p.GetBuffer()
				buf.Write(data)
				buf.Free()
			}, func() { runtime.KeepAlive(p) }
		})
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		bloat(b, func() (func([]byte), func()) {
			p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
			return func(data []byte) {
				buf := p.Get().(*bytes.Buffer)
				buf.Write(data)
				buf.Reset()
				p.Put(buf)
			}, func() { runtime.KeepAlive(p) }
		})
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		bloat(b, func() (func([]byte), func()) {
			p := new(bytebufferpool.Pool)
			return func(data []byte) {
				buf := p.Get()
				buf.Write(data)
				p.Put(buf)
			}, func() { runtime.KeepAlive(p) }
		})
	})
}
