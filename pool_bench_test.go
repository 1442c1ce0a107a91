package pool_test

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/poolkit/pool"
)

// write is the op's one non-inlined write into the pooled buffer.
//
//go:noinline
func write(b *bytes.Buffer) { b.WriteByte('x') }

// The pools of the engine benchmarks are package-level variables, as users
// declare them.
var (
	syncBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	bufs     = pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
	bufsHook = pool.Pool[*bytes.Buffer]{
		New:   func() *bytes.Buffer { return new(bytes.Buffer) },
		Reset: (*bytes.Buffer).Reset,
	}
	syncSlices = sync.Pool{New: func() any { return make([]byte, 64) }}
	byteSlices = pool.Pool[[]byte]{New: func() []byte { return make([]byte, 64) }}
)

// The op of BenchmarkPoolGetPut*: Get, Reset, one non-inlined write, Put.
func syncPoolOp() {
	buf := syncBufs.Get().(*bytes.Buffer)
	buf.Reset()
	write(buf)
	syncBufs.Put(buf)
}

func poolOp() {
	buf := bufs.Get()
	buf.Reset()
	write(buf)
	bufs.Put(buf)
}

// poolOpResetHook is the op with the Reset hook doing the Reset: one
// indirect call instead of the inlined method.
func poolOpResetHook() {
	buf := bufsHook.Get()
	write(buf)
	bufsHook.Put(buf)
}

// The ops of BenchmarkPoolSlice: a 64-byte []byte taken, written, returned.
func syncPoolSliceOp() {
	s := syncSlices.Get().([]byte)
	writeSlice(s)
	syncSlices.Put(s) //nolint:staticcheck // SA6002 is the point of the comparison
}

func poolSliceOp() {
	s := byteSlices.Get()
	writeSlice(s)
	byteSlices.Put(s)
}

// benchOp runs op b.N times from one goroutine.
func benchOp(b *testing.B, op func()) {
	b.ReportAllocs()
	for b.Loop() {
		op()
	}
}

// benchOpParallel runs op b.N times from GOMAXPROCS goroutines.
func benchOpParallel(b *testing.B, op func()) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			op()
		}
	})
}

// BenchmarkPoolGetPut measures the basic op — Get, Reset, one non-inlined
// write, Put — on *bytes.Buffer objects of a package-level pool from one
// goroutine, against sync.Pool doing the same.
func BenchmarkPoolGetPut(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) { benchOp(b, syncPoolOp) })
	b.Run("impl=pool", func(b *testing.B) { benchOp(b, poolOp) })
	b.Run("impl=pool-resethook", func(b *testing.B) { benchOp(b, poolOpResetHook) })
}

// BenchmarkPoolGetPutParallel is the same op from GOMAXPROCS goroutines
// (RunParallel): it stresses the per-P sharding and false sharing.
func BenchmarkPoolGetPutParallel(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) { benchOpParallel(b, syncPoolOp) })
	b.Run("impl=pool", func(b *testing.B) { benchOpParallel(b, poolOp) })
}

//go:noinline
func writeSlice(s []byte) { s[0] = 'x' }

// BenchmarkPoolSlice pools []byte values directly: sync.Pool must box the
// slice header on every Put (staticcheck SA6002), Pool[[]byte] stores it
// unboxed.
func BenchmarkPoolSlice(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) { benchOp(b, syncPoolSliceOp) })
	b.Run("impl=pool", func(b *testing.B) { benchOp(b, poolSliceOp) })
}

// BenchmarkPoolGCRetention takes 256 buffers of 32 KiB, returns them, and
// forces two GC cycles, per iteration. It reports the hit ratio of the next
// round of Gets: sync.Pool forgets everything in two cycles, a Pool with
// MinIdle=256 keeps it.
func BenchmarkPoolGCRetention(b *testing.B) {
	const n, size = 256, 32 << 10
	newBuf := func() []byte { return make([]byte, size) }
	run := func(b *testing.B, get func() ([]byte, bool), put func([]byte)) {
		b.ReportAllocs()
		var hits, gets int
		bufs := make([][]byte, n)
		for b.Loop() {
			for i := range bufs {
				var hit bool
				bufs[i], hit = get()
				if hit {
					hits++
				}
				gets++
			}
			for i := range bufs {
				put(bufs[i])
				bufs[i] = nil
			}
			runtime.GC()
			runtime.GC()
		}
		b.ReportMetric(float64(hits)/float64(gets), "hit-ratio")
	}
	b.Run("impl=syncpool", func(b *testing.B) {
		var sp sync.Pool
		run(b, func() ([]byte, bool) {
			if p, ok := sp.Get().(*[]byte); ok {
				return *p, true
			}
			return newBuf(), false
		}, func(s []byte) { sp.Put(&s) })
	})
	b.Run("impl=pool-minidle", func(b *testing.B) {
		p := pool.Pool[[]byte]{MinIdle: n}
		run(b, func() ([]byte, bool) {
			if s := p.Get(); s != nil {
				return s, true
			}
			return newBuf(), false
		}, p.Put)
	})
}

// BenchmarkPoolDebug measures the GetPut op under each POOLDEBUG setting:
// "off" is the cost every user pays for debug support (one flag load in Get
// and Put), "leak128" the production setting of issue 6.
func BenchmarkPoolDebug(b *testing.B) {
	for _, mode := range []struct{ name, settings string }{
		{"off", ""},
		{"leak128", "leak=128"},
		{"doubleput", "doubleput=1"},
		{"leak1", "leak=1"},
	} {
		b.Run("impl="+mode.name, func(b *testing.B) {
			defer pool.SetDebug(pool.SetDebug(mode.settings))
			benchOp(b, poolOp)
		})
	}
}
