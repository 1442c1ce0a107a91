package bytepool_test

import (
	"bytes"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/pool/bytepool"
)

// syncPow2 is the usual hand-rolled baseline: one sync.Pool per power of
// two, holding *[]byte.
type syncPow2 [21]sync.Pool

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

// benchSizes are request sizes at, just above and inside class boundaries,
// from the smallest class to MaxSize.
var benchSizes = []int{16, 100, 1500, 40 << 10, 1 << 20}

// BenchmarkPoolGetPut stresses one class's fast path: Get(n) and an
// immediate Put of the same size, one goroutine. Baselines: sync.Pool per
// power of two, and make. Log-uniform sizes and other libraries are in
// benchmarks/bytepoolcmp.
func BenchmarkPoolGetPut(b *testing.B) {
	for _, n := range benchSizes {
		run := func(b *testing.B, get func(int) []byte, put func([]byte)) {
			put(get(n))
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				put(get(n))
			}
		}
		b.Run(fmt.Sprintf("size=%d/impl=bytepool", n), func(b *testing.B) {
			var p bytepool.Pool
			run(b, p.Get, p.Put)
		})
		b.Run(fmt.Sprintf("size=%d/impl=sync.Pool-pow2", n), func(b *testing.B) {
			var p syncPow2
			run(b, p.get, p.put)
		})
		b.Run(fmt.Sprintf("size=%d/impl=make", n), func(b *testing.B) {
			run(b, func(n int) []byte { return make([]byte, n) }, func([]byte) {})
		})
	}
}

// BenchmarkGetPutLogUniform is Get(n)+Put as programs call them: the
// package-level functions over 4,096 sizes log-uniform in 16 B..64 KiB
// (fixed seed), writing the first and last byte of each buffer, with the
// mean cap/len as a metric; impl=instance is the same on a Pool of its own.
// The comparison with other libraries is benchmarks/bytepoolcmp's
// BenchmarkGetPut.
func BenchmarkGetPutLogUniform(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 14))
	sizes := make([]int, 1<<12)
	sum := 0
	for i := range sizes {
		sizes[i] = int(16 * math.Exp2(12*r.Float64()))
		sum += sizes[i]
	}
	const mask = 1<<12 - 1
	setup := func(b *testing.B, get func(int) []byte, put func([]byte)) {
		var ratio float64
		for _, n := range sizes {
			buf := get(n)
			ratio += float64(cap(buf)) / float64(n)
			put(buf)
		}
		b.SetBytes(int64(sum / len(sizes)))
		b.ReportAllocs()
		b.Cleanup(func() { b.ReportMetric(ratio/float64(len(sizes)), "cap/len") })
	}
	b.Run("impl=package", func(b *testing.B) {
		setup(b, bytepool.Get, bytepool.Put)
		for i := 0; b.Loop(); i++ {
			buf := bytepool.Get(sizes[i&mask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			bytepool.Put(buf)
		}
	})
	b.Run("impl=instance", func(b *testing.B) {
		var p bytepool.Pool
		setup(b, p.Get, p.Put)
		for i := 0; b.Loop(); i++ {
			buf := p.Get(sizes[i&mask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			p.Put(buf)
		}
	})
	b.Run("impl=sync.Pool-pow2", func(b *testing.B) {
		var p syncPow2
		setup(b, p.get, p.put)
		for i := 0; b.Loop(); i++ {
			buf := p.get(sizes[i&mask])
			buf[0], buf[len(buf)-1] = byte(i), byte(i)
			p.put(buf)
		}
	})
}

// BenchmarkPoolGetPutParallel is BenchmarkPoolGetPut with 4 KiB from
// GOMAXPROCS goroutines: it stresses the per-P shards and the budget's
// per-P credit.
func BenchmarkPoolGetPutParallel(b *testing.B) {
	const n = 4 << 10
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		b.SetBytes(n)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p.Put(p.Get(n))
			}
		})
	})
	b.Run("impl=sync.Pool-pow2", func(b *testing.B) {
		var p syncPow2
		b.SetBytes(n)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				p.put(p.get(n))
			}
		})
	})
}

// BenchmarkBufferGrow writes 64 KiB in 100-byte pieces into a new Buffer
// and frees it: growth through the classes before and after the pool has
// learned the size. Baseline: sync.Pool of *bytes.Buffer, which keeps
// every buffer at the largest size it ever reached.
func BenchmarkBufferGrow(b *testing.B) {
	piece := bytes.Repeat([]byte("x"), 100)
	const total = 64 << 10
	b.Run("impl=bytepool", func(b *testing.B) {
		var p bytepool.Pool
		b.SetBytes(total)
		b.ReportAllocs()
		grows := 0
		for b.Loop() {
			buf := p.GetBuffer()
			c := buf.Cap()
			for w := 0; w < total; w += len(piece) {
				buf.Write(piece)
			}
			if buf.Cap() != c {
				grows++
			}
			buf.Free()
		}
		b.ReportMetric(float64(grows)/float64(b.N), "grown/op")
	})
	b.Run("impl=sync.Pool+bytes.Buffer", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			buf := p.Get().(*bytes.Buffer)
			for w := 0; w < total; w += len(piece) {
				buf.Write(piece)
			}
			buf.Reset()
			p.Put(buf)
		}
	})
}

// BenchmarkBufferLogLine formats a log line into a Buffer, with the
// timestamp and numbers appended straight into its free space
// (AvailableBuffer), and frees it. The comparison with other libraries'
// buffers, with identical calls, is in benchmarks/bytepoolcmp.
func BenchmarkBufferLogLine(b *testing.B) {
	ts := time.Date(2026, 11, 21, 7, 20, 30, 123456789, time.UTC)
	var p bytepool.Pool
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		buf := p.GetBuffer()
		buf.Write(ts.AppendFormat(buf.AvailableBuffer(), time.RFC3339Nano))
		buf.WriteString(" level=info msg=\"request served\" status=")
		buf.Write(strconv.AppendInt(buf.AvailableBuffer(), int64(200+i&3), 10))
		buf.WriteByte('\n')
		n += buf.Len()
		buf.Free()
	}
	if n == 0 {
		b.Fatal("nothing written")
	}
}
