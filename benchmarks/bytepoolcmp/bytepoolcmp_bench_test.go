package bytepoolcmp

import (
	"bytes"
	"io"
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

// sizeMask indexes the log-uniform sequence, whose length is a power of two.
const sizeMask = 1<<12 - 1

// BenchmarkGetPut is the size-classed pools' hot path as programs call it:
// the package-level Get(n) and Put of each library over log-uniform sizes
// 16 B..64 KiB (4,096 sizes, fixed seed) on one goroutine, writing the
// first and last byte of every buffer (a pool that hands out memory nobody
// touches measures less than its users pay). Each loop calls its pool
// directly, as a program would; impl=bytepool-instance is the same loop on a
// bytepool.Pool of the program's own, and impl=make the allocation it saves.
func BenchmarkGetPut(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		sizes, report := prepare(b, bytepool.Get, same, bytepool.Put)
		for i := 0; b.Loop(); i++ {
			buf := bytepool.Get(sizes[i&sizeMask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			bytepool.Put(buf)
		}
		report()
	})
	b.Run("impl=bytepool-instance", func(b *testing.B) {
		var p bytepool.Pool
		sizes, report := prepare(b, p.Get, same, p.Put)
		for i := 0; b.Loop(); i++ {
			buf := p.Get(sizes[i&sizeMask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			p.Put(buf)
		}
		report()
	})
	b.Run("impl=libp2p", func(b *testing.B) {
		sizes, report := prepare(b, libp2p.Get, same, libp2p.Put)
		for i := 0; b.Loop(); i++ {
			buf := libp2p.Get(sizes[i&sizeMask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			libp2p.Put(buf)
		}
		report()
	})
	b.Run("impl=grpc-mem", func(b *testing.B) {
		p := mem.DefaultBufferPool() // tiers 256 B, 4, 16, 32 KiB, 1 MiB
		sizes, report := prepare(b, p.Get, deref, p.Put)
		for i := 0; b.Loop(); i++ {
			buf := p.Get(sizes[i&sizeMask])
			(*buf)[0], (*buf)[len(*buf)-1] = byte(i), byte(i)
			p.Put(buf)
		}
		report()
	})
	b.Run("impl=make", func(b *testing.B) {
		sizes, report := prepare(b, func(n int) []byte { return make([]byte, n) }, same, func([]byte) {})
		for i := 0; b.Loop(); i++ {
			buf := make([]byte, sizes[i&sizeMask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			sinkBuf = buf
		}
		report()
	})
}

var sinkBuf []byte

// BenchmarkGetPutParallel is BenchmarkGetPut from GOMAXPROCS goroutines:
// contention on the pools' shared state.
func BenchmarkGetPutParallel(b *testing.B) {
	sizes, mean := logUniformSizes(1<<12, 16, 64<<10)
	setup := func(b *testing.B) {
		b.SetBytes(int64(mean))
		b.ReportAllocs()
	}
	b.Run("impl=bytepool", func(b *testing.B) {
		setup(b)
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				buf := bytepool.Get(sizes[i&sizeMask])
				buf[0], buf[len(buf)-1] = byte(i), byte(i)
				bytepool.Put(buf)
			}
		})
	})
	b.Run("impl=libp2p", func(b *testing.B) {
		setup(b)
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				buf := libp2p.Get(sizes[i&sizeMask])
				buf[0], buf[len(buf)-1] = byte(i), byte(i)
				libp2p.Put(buf)
			}
		})
	})
}

// The log line: the sync.Pool documentation's example as a logger writes it,
// a ~60-byte line assembled from three strings and a newline into a pooled
// buffer, handed to a writer, and the buffer given back. The three parts:
const (
	logLevel = "level=info "
	logMsg   = "msg=\"request served\" "
	logPath  = "path=/api/v1/items status=200"
)

// BenchmarkBufferLogLine takes a buffer from each library's package-level
// pool, writes the log line with three WriteStrings and a WriteByte, writes
// Bytes() to io.Discard and gives the buffer back: what the pool and its
// buffer cost a logger per line. impl=bytepool-instance uses a Pool of its
// own.
func BenchmarkBufferLogLine(b *testing.B) {
	const lineLen = len(logLevel+logMsg+logPath) + 1
	b.Run("impl=bytepool", func(b *testing.B) {
		b.SetBytes(int64(lineLen))
		b.ReportAllocs()
		for b.Loop() {
			buf := bytepool.GetBuffer()
			buf.WriteString(logLevel)
			buf.WriteString(logMsg)
			buf.WriteString(logPath)
			buf.WriteByte('\n')
			io.Discard.Write(buf.Bytes())
			buf.Free()
		}
	})
	b.Run("impl=bytepool-instance", func(b *testing.B) {
		var p bytepool.Pool
		b.SetBytes(int64(lineLen))
		b.ReportAllocs()
		for b.Loop() {
			buf := p.GetBuffer()
			buf.WriteString(logLevel)
			buf.WriteString(logMsg)
			buf.WriteString(logPath)
			buf.WriteByte('\n')
			io.Discard.Write(buf.Bytes())
			buf.Free()
		}
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		b.SetBytes(int64(lineLen))
		b.ReportAllocs()
		for b.Loop() {
			buf := bytebufferpool.Get()
			buf.WriteString(logLevel)
			buf.WriteString(logMsg)
			buf.WriteString(logPath)
			buf.WriteByte('\n')
			io.Discard.Write(buf.Bytes())
			bytebufferpool.Put(buf)
		}
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		b.SetBytes(int64(lineLen))
		b.ReportAllocs()
		for b.Loop() {
			buf := bytesBuffers.Get().(*bytes.Buffer)
			buf.WriteString(logLevel)
			buf.WriteString(logMsg)
			buf.WriteString(logPath)
			buf.WriteByte('\n')
			io.Discard.Write(buf.Bytes())
			buf.Reset()
			bytesBuffers.Put(buf)
		}
	})
}

// bytesBuffers is the package-level sync.Pool a program keeps its
// *bytes.Buffer in.
var bytesBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// logTime is the timestamp of every formatted log line.
var logTime = time.Date(2026, 11, 21, 7, 20, 30, 123456789, time.UTC)

// The formatted-log-line functions write the same ~130-byte line with the
// same calls; only the buffer type differs (a shared interface would make
// every call indirect and move the scratch array to the heap).

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

// BenchmarkBufferLogLineFormatted is BenchmarkBufferLogLine with a longer
// line that is formatted (a timestamp and two integers), on the libraries'
// package-level pools: the pools' share of a real logger's cost.
func BenchmarkBufferLogLineFormatted(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := bytepool.GetBuffer()
			logLineBytepool(buf, i)
			io.Discard.Write(buf.Bytes())
			buf.Free()
		}
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := bytebufferpool.Get()
			logLineByteBuffer(buf, i)
			io.Discard.Write(buf.Bytes())
			bytebufferpool.Put(buf)
		}
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := bytesBuffers.Get().(*bytes.Buffer)
			logLineBytesBuffer(buf, i)
			io.Discard.Write(buf.Bytes())
			buf.Reset()
			bytesBuffers.Put(buf)
		}
	})
}

// BenchmarkBufferRoundTrip is BenchmarkBufferLogLine without the line:
// take a buffer from the package-level pool, write one byte, give it back.
// It isolates what the pools cost per use.
func BenchmarkBufferRoundTrip(b *testing.B) {
	b.Run("impl=bytepool", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := bytepool.GetBuffer()
			buf.WriteByte('x')
			sink += buf.Len()
			buf.Free()
		}
	})
	b.Run("impl=bytebufferpool", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := bytebufferpool.Get()
			buf.WriteByte('x')
			sink += buf.Len()
			bytebufferpool.Put(buf)
		}
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf := bytesBuffers.Get().(*bytes.Buffer)
			buf.WriteByte('x')
			sink += buf.Len()
			buf.Reset()
			bytesBuffers.Put(buf)
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
