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

// The op of BenchmarkPoolGetPut*: Get, Reset, one non-inlined write, Put.
func syncPoolOp(sp *sync.Pool) {
	buf := sp.Get().(*bytes.Buffer)
	buf.Reset()
	write(buf)
	sp.Put(buf)
}

func poolOp(p *pool.Pool[*bytes.Buffer]) {
	buf := p.Get()
	buf.Reset()
	write(buf)
	p.Put(buf)
}

// poolOpResetHook is the op with the Reset hook doing the Reset: one
// indirect call instead of the inlined method.
func poolOpResetHook(p *pool.Pool[*bytes.Buffer]) {
	buf := p.Get()
	write(buf)
	p.Put(buf)
}

func newSyncPool() *sync.Pool {
	return &sync.Pool{New: func() any { return new(bytes.Buffer) }}
}

func newBufPool(resetHook bool) *pool.Pool[*bytes.Buffer] {
	p := &pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
	if resetHook {
		p.Reset = (*bytes.Buffer).Reset
	}
	return p
}

// BenchmarkPoolGetPut measures the basic op — Get, Reset, one non-inlined
// write, Put — on *bytes.Buffer objects from one goroutine, against
// sync.Pool doing the same.
func BenchmarkPoolGetPut(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) {
		sp := newSyncPool()
		b.ReportAllocs()
		for b.Loop() {
			syncPoolOp(sp)
		}
	})
	b.Run("impl=pool", func(b *testing.B) {
		p := newBufPool(false)
		b.ReportAllocs()
		for b.Loop() {
			poolOp(p)
		}
	})
	b.Run("impl=pool-resethook", func(b *testing.B) {
		p := newBufPool(true)
		b.ReportAllocs()
		for b.Loop() {
			poolOpResetHook(p)
		}
	})
}

// BenchmarkPoolGetPutParallel is the same op from GOMAXPROCS goroutines
// (RunParallel): it stresses the per-P sharding and false sharing.
func BenchmarkPoolGetPutParallel(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) {
		sp := newSyncPool()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				syncPoolOp(sp)
			}
		})
	})
	b.Run("impl=pool", func(b *testing.B) {
		p := newBufPool(false)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				poolOp(p)
			}
		})
	})
}

//go:noinline
func writeSlice(s []byte) { s[0] = 'x' }

// BenchmarkPoolSlice pools []byte values directly: sync.Pool must box the
// slice header on every Put (staticcheck SA6002), Pool[[]byte] stores it
// unboxed.
func BenchmarkPoolSlice(b *testing.B) {
	b.Run("impl=syncpool", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return make([]byte, 64) }}
		b.ReportAllocs()
		for b.Loop() {
			s := sp.Get().([]byte)
			writeSlice(s)
			sp.Put(s) //nolint:staticcheck // SA6002 is the point of the comparison
		}
	})
	b.Run("impl=pool", func(b *testing.B) {
		p := pool.Pool[[]byte]{New: func() []byte { return make([]byte, 64) }}
		b.ReportAllocs()
		for b.Loop() {
			s := p.Get()
			writeSlice(s)
			p.Put(s)
		}
	})
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
			p := newBufPool(false)
			b.ReportAllocs()
			for b.Loop() {
				poolOp(p)
			}
		})
	}
}
