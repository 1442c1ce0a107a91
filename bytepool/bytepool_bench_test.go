package bytepool_test

import (
	"bytes"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/pool/bytepool"
)

// logUniformSizes returns n sizes drawn log-uniformly from [16, 64 KiB], the
// same for every run, and their mean.
func logUniformSizes(n int) ([]int, float64) {
	r := rand.New(rand.NewPCG(3, 14))
	sizes := make([]int, n)
	sum := 0
	for i := range sizes {
		sizes[i] = int(16 * math.Pow(2, 12*r.Float64()))
		sum += sizes[i]
	}
	return sizes, float64(sum) / float64(n)
}

// benchGetPut runs Get(n)+Put over log-uniform sizes and reports the mean
// cap/len of what get returned.
func benchGetPut(b *testing.B, get func(int) []byte, put func([]byte)) {
	sizes, mean := logUniformSizes(1 << 12)
	for _, n := range sizes { // warm the pool with every class in use
		put(get(n))
	}
	b.SetBytes(int64(mean))
	b.ReportAllocs()
	var ratio float64
	i := 0
	for b.Loop() {
		n := sizes[i&(len(sizes)-1)]
		buf := get(n)
		ratio += float64(cap(buf)) / float64(n)
		put(buf)
		i++
	}
	b.ReportMetric(ratio/float64(i), "cap/len")
}

// syncPow2 is the usual hand-rolled baseline: one sync.Pool per power of
// two, holding *[]byte so that Put does not allocate.
type syncPow2 [17]sync.Pool

func (p *syncPow2) get(n int) []byte {
	c := bits.Len(uint(n - 1))
	if v, ok := p[c].Get().(*[]byte); ok {
		return (*v)[:n]
	}
	return make([]byte, n, 1<<c)
}

func (p *syncPow2) put(b []byte) {
	c := bits.Len(uint(cap(b) - 1))
	if c < len(p) && cap(b) == 1<<c {
		p[c].Put(&b) // allocates the *[]byte, as most sync.Pool byte pools do
	}
}

// BenchmarkPoolGetPut stresses the class lookup and the engine's fast path:
// Get(n) and an immediate Put over log-uniform sizes 16 B .. 64 KiB, one
// goroutine. Baselines: one sync.Pool per power of two, and make.
func BenchmarkPoolGetPut(b *testing.B) {
	b.Run("bytepool", func(b *testing.B) {
		var p bytepool.Pool
		benchGetPut(b, p.Get, p.Put)
	})
	b.Run("sync.Pool-pow2", func(b *testing.B) {
		var p syncPow2
		benchGetPut(b, p.get, p.put)
	})
	b.Run("make", func(b *testing.B) {
		benchGetPut(b, func(n int) []byte { return make([]byte, n) }, func([]byte) {})
	})
}

// BenchmarkPoolGetPutParallel is BenchmarkPoolGetPut from GOMAXPROCS
// goroutines: it stresses the per-P shards and the shared budget counter.
func BenchmarkPoolGetPutParallel(b *testing.B) {
	sizes, mean := logUniformSizes(1 << 12)
	run := func(b *testing.B, get func(int) []byte, put func([]byte)) {
		b.SetBytes(int64(mean))
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				put(get(sizes[i&(len(sizes)-1)]))
			}
		})
	}
	b.Run("bytepool", func(b *testing.B) {
		var p bytepool.Pool
		run(b, p.Get, p.Put)
	})
	b.Run("sync.Pool-pow2", func(b *testing.B) {
		var p syncPow2
		run(b, p.get, p.put)
	})
}

// logTime is the timestamp of every benchmark log line.
var logTime = time.Date(2026, 11, 21, 7, 20, 30, 123456789, time.UTC)

// BenchmarkBufferLogLine formats a log line (timestamp, key=value pairs,
// newline) into a pooled buffer and frees it: the sync.Pool documentation's
// example. Baseline: sync.Pool of *bytes.Buffer.
func BenchmarkBufferLogLine(b *testing.B) {
	b.Run("bytepool", func(b *testing.B) {
		var p bytepool.Pool
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := p.GetBuffer()
			var num [32]byte
			buf.Write(logTime.AppendFormat(num[:0], time.RFC3339Nano))
			buf.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items status=")
			buf.Write(strconv.AppendInt(num[:0], 200, 10))
			buf.WriteString(" dur_us=")
			buf.Write(strconv.AppendInt(num[:0], int64(i&1023), 10))
			buf.WriteByte('\n')
			sinkLen += buf.Len()
			buf.Free()
		}
	})
	b.Run("sync.Pool+bytes.Buffer", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			buf := p.Get().(*bytes.Buffer)
			var num [32]byte
			buf.Write(logTime.AppendFormat(num[:0], time.RFC3339Nano))
			buf.WriteString(" level=info msg=\"request served\" method=GET path=/api/v1/items status=")
			buf.Write(strconv.AppendInt(num[:0], 200, 10))
			buf.WriteString(" dur_us=")
			buf.Write(strconv.AppendInt(num[:0], int64(i&1023), 10))
			buf.WriteByte('\n')
			sinkLen += buf.Len()
			buf.Reset()
			p.Put(buf)
		}
	})
}

var sinkLen int
