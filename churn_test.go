package pool_test

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// lockedThreadExits makes n goroutines that lock their OS thread and
// return without unlocking, so that each thread exits; each uses p first.
func lockedThreadExits(n int, p *pool.Pool[*bytes.Buffer]) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			runtime.LockOSThread()
			b := p.Get()
			if b == nil {
				b = new(bytes.Buffer)
			}
			b.WriteByte(byte(i))
			p.Put(b)
		})
		if i%64 == 63 {
			wg.Wait() // keep the number of live threads small
		}
	}
	wg.Wait()
}

// TestThreadChurn: 10,000 threads that used the pool and exited locked
// leave nothing behind: the pool keeps at most one shard per P, and a
// goroutine on a new thread still gets its own Put back from its P's cache.
func TestThreadChurn(t *testing.T) {
	noGC(t)
	n := 10000
	if testing.Short() {
		n = 1000
	}
	p := pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
	lockedThreadExits(n, &p)
	if got, procs := pool.Shards(&p), runtime.GOMAXPROCS(0); got > procs {
		t.Fatalf("after %d locked-thread exits the pool has %d shards; want <= GOMAXPROCS = %d", n, got, procs)
	}
	onNewThread(func() {
		runtime.Gosched()
		b := p.Get()
		p.Put(b)
		if got := p.Get(); !pool.RaceEnabled && got != b {
			t.Errorf("on a new thread Get after Put = %p; want the object just Put, %p (the P's cache)", got, b)
		}
	})
	s := p.Stats()
	checkIdentity(t, s)
}

// TestNoGoroutineLeft: using pools, leaving objects in them and running GC
// cycles leaves no goroutine of the library running (the trimming runs on
// the runtime's cleanup goroutine, hidden while idle, and on short-lived
// timer goroutines). This is what go.uber.org/goleak checks in users'
// TestMain; the benchmarks module runs goleak itself.
func TestNoGoroutineLeft(t *testing.T) {
	var p pool.Pool[*bytes.Buffer]
	q := pool.Pool[*[64]byte]{MinIdle: 8}
	var bp bytepool.Pool
	for range 100 {
		p.Put(new(bytes.Buffer))
		q.Put(new([64]byte))
		bp.Put(bp.Get(1000))
	}
	for range 3 {
		if !pool.GCAndTrim() {
			t.Fatal("trimmer did not run after GC")
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		var ours []string
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "github.com/poolkit/pool.") || strings.Contains(g, "github.com/poolkit/pool/") {
				if !strings.Contains(g, "TestNoGoroutineLeft") && !strings.Contains(g, "testing.tRunner") {
					ours = append(ours, g)
				}
			}
		}
		if len(ours) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines of the library still running 5s after the last GC:\n%s", strings.Join(ours, "\n\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(&p)
	runtime.KeepAlive(&q)
	runtime.KeepAlive(&bp)
}

// TestIdleMemory: an idle Pool[*T] holding one object costs at most 8 KB at
// GOMAXPROCS=64, and a bytepool.Pool at most 256 KB before it holds any
// bytes (the issue found 38 KB and 6.2 MB).
func TestIdleMemory(t *testing.T) {
	old := runtime.GOMAXPROCS(64)
	defer runtime.GOMAXPROCS(old)
	const n = 200
	perPool := func(newPool func() any) uint64 {
		var ms runtime.MemStats
		keep := make([]any, 0, n)
		runtime.GC()
		runtime.ReadMemStats(&ms)
		before := ms.HeapAlloc
		for range n {
			keep = append(keep, newPool())
		}
		runtime.GC()
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(keep)
		return (ms.HeapAlloc - before) / n
	}
	gotPool := perPool(func() any {
		p := new(pool.Pool[*int])
		p.Put(new(int))
		return p
	})
	if gotPool > 8<<10 {
		t.Errorf("idle Pool[*int] holding one object at GOMAXPROCS=64: %d bytes; want <= 8 KB", gotPool)
	}
	gotByte := perPool(func() any {
		p := new(bytepool.Pool)
		_ = p.Get(100) // a miss: the pool is set up, and holds nothing
		return p
	})
	if gotByte > 256<<10 {
		t.Errorf("bytepool.Pool before holding bytes at GOMAXPROCS=64: %d bytes; want <= 256 KB", gotByte)
	}
	t.Logf("GOMAXPROCS=64: Pool[*int] with one idle object %d B; bytepool.Pool holding nothing %d B", gotPool, gotByte)
}

// BenchmarkPoolThreadChurn measures Get+Put from a goroutine on a new OS
// thread before and after 10,000 threads used the pool and exited locked,
// in one process: phase=after must cost no more than about phase=before.
//
//	go test -run '^$' -bench BenchmarkPoolThreadChurn -count 10 . | benchstat -col /phase
func BenchmarkPoolThreadChurn(b *testing.B) {
	var p pool.Pool[*bytes.Buffer]
	p.Put(new(bytes.Buffer))
	op := func(b *testing.B) {
		b.ReportAllocs()
		done := make(chan struct{})
		go func() {
			defer close(done)
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for b.Loop() {
				buf := p.Get()
				if buf == nil {
					buf = new(bytes.Buffer)
				}
				buf.Reset()
				write(buf)
				p.Put(buf)
			}
		}()
		<-done
	}
	b.Run("phase=before", op)
	churnOnce.Do(func() { lockedThreadExits(10000, &p) })
	b.Run("phase=after", op)
}

var churnOnce sync.Once
