package bytepool_test

import (
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
	"github.com/poolkit/pool/internal/poolhooks"
	"github.com/poolkit/pool/internal/sizeclass"
)

// setDebug applies POOLDEBUG settings for the rest of the test.
func setDebug(t *testing.T, settings string) {
	prev := pool.SetDebug(settings)
	t.Cleanup(func() { pool.SetDebug(prev) })
}

// debugTest prepares a debug-mode test: no GC and one P, so that a Put is
// followed by a Get of the same slice, and the given POOLDEBUG settings.
func debugTest(t *testing.T, settings string) {
	noGC(t)
	oneP(t)
	setDebug(t, settings)
}

// reports installs a reporter for the rest of the test and returns a
// function that returns the reports received so far.
func reports(t *testing.T) func() []pool.Report {
	var mu sync.Mutex
	var got []pool.Report
	pool.SetReporter(func(r pool.Report) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
	})
	t.Cleanup(func() { pool.SetReporter(nil) })
	return func() []pool.Report {
		mu.Lock()
		defer mu.Unlock()
		return append([]pool.Report(nil), got...)
	}
}

// putKept returns a slice of length n that p took from Get and then cached
// on Put: under the race detector the engine drops Puts at random, so it
// retries until one is kept. The test must run with noGC and oneP.
func putKept(t *testing.T, p *bytepool.Pool, n int) []byte {
	t.Helper()
	for range 100 {
		b := p.Get(n)
		idle := p.Stats().Idle
		p.Put(b)
		if p.Stats().Idle == idle+1 {
			return b
		}
	}
	t.Fatal("no Put was kept in 100 tries")
	return nil
}

// panicMessage runs f and returns what it panicked with ("" if it did not).
func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func TestPoisonWriteAfterPutPanics(t *testing.T) {
	debugTest(t, "poison=1")
	for _, tc := range []struct {
		n, size int
	}{
		{1, 16}, {100, 112}, {5000, 5120}, {60 << 10, 64 << 10},
	} {
		for _, where := range []string{"first", "last"} {
			t.Run(fmt.Sprintf("%d/%s", tc.n, where), func(t *testing.T) {
				var p bytepool.Pool
				b := putKept(t, &p, tc.n)
				off := 0
				if where == "last" {
					off = tc.size - 1 // beyond len(b): the whole capacity is checked
				}
				b[:cap(b)][off] = 'x' // the bug: a write after Put
				msg := panicMessage(func() { p.Get(tc.n) })
				for _, want := range []string{
					"bytepool.Get: ", "modified after Put", fmt.Sprintf("(cap %d)", tc.size),
					fmt.Sprintf("byte %d is 0x78", off),
				} {
					if !strings.Contains(msg, want) {
						t.Errorf("panic = %q; want it to contain %q", msg, want)
					}
				}
			})
		}
	}
}

// TestPoisonWithoutWrites checks that Put fills the whole capacity with the
// pattern and that Get hands the slice out again without a report.
func TestPoisonWithoutWrites(t *testing.T) {
	debugTest(t, "poison=1")
	got := reports(t)
	var p bytepool.Pool
	for c := 0; sizeclass.Size(c) <= 64<<10; c++ {
		size := sizeclass.Size(c)
		b := putKept(t, &p, size)
		g := p.Get(size)
		if base(g) != base(b) {
			t.Fatalf("Get(%d) after Put: a new array; want the slice just Put", size)
		}
		for i, v := range g[:cap(g)] {
			if v != 0xa5 {
				t.Fatalf("Get(%d) after Put: byte %d is %#x; want the poison 0xa5 over the whole capacity", size, i, v)
			}
		}
	}
	if r := got(); len(r) != 0 {
		t.Errorf("reports = %+v; want none", r)
	}
}

// TestPoisonReporterDrops checks that with a reporter set a poisoned slice
// is reported once and dropped: Get hands out a fresh slice instead.
func TestPoisonReporterDrops(t *testing.T) {
	debugTest(t, "poison=1")
	got := reports(t)
	var p bytepool.Pool
	b := putKept(t, &p, 1000)
	b[10] = 0
	g := p.Get(1000)
	if base(g) == base(b) {
		t.Fatal("Get handed out the slice modified after Put; want a fresh one")
	}
	if len(g) != 1000 || cap(g) != 1024 {
		t.Errorf("Get(1000) = len %d, cap %d; want len 1000, cap 1024", len(g), cap(g))
	}
	r := got()
	if len(r) != 1 {
		t.Fatalf("got %d reports (%+v); want 1", len(r), r)
	}
	if r[0].Kind != "modified after Put" || r[0].Type != "[]byte" ||
		!strings.HasPrefix(r[0].Message, "bytepool.Get: ") || !strings.Contains(r[0].Message, "(cap 1024)") {
		t.Errorf("report = %+v; want kind %q, type []byte, a message from bytepool.Get with (cap 1024)", r[0], "modified after Put")
	}
	// The dropped slice is gone for good: the pool is empty.
	if g2 := p.Get(1000); base(g2) == base(b) {
		t.Error("a later Get handed out the slice modified after Put")
	}
	if len(got()) != 1 {
		t.Errorf("got %d reports; want still 1", len(got()))
	}
}

// TestPoisonBuffer checks the storage an idle Buffer keeps: a write through
// a slice of it after Free is reported by the next GetBuffer.
func TestPoisonBuffer(t *testing.T) {
	debugTest(t, "poison=1")
	t.Run("panic", func(t *testing.T) {
		var p bytepool.Pool
		stale := freedStorage(t, &p)
		stale[3] = 'y'
		msg := panicMessage(func() { p.GetBuffer() })
		if !strings.HasPrefix(msg, "bytepool.GetBuffer: ") || !strings.Contains(msg, "modified after Put") ||
			!strings.Contains(msg, fmt.Sprintf("(cap %d)", len(stale))) || !strings.Contains(msg, "byte 3 ") {
			t.Errorf("panic = %q; want bytepool.GetBuffer, modified after Put, (cap %d), byte 3", msg, len(stale))
		}
	})
	t.Run("reporter", func(t *testing.T) {
		got := reports(t)
		var p bytepool.Pool
		stale := freedStorage(t, &p)
		stale[len(stale)-1] = 'y'
		b := p.GetBuffer()
		if b.Cap() != len(stale) || base(b.AvailableBuffer()) == base(stale) {
			t.Errorf("GetBuffer: cap %d, same storage %v; want fresh storage of cap %d",
				b.Cap(), base(b.AvailableBuffer()) == base(stale), len(stale))
		}
		b.WriteString("ok")
		if b.String() != "ok" {
			t.Errorf("String() = %q; want %q", b.String(), "ok")
		}
		b.Free()
		if r := got(); len(r) != 1 || r[0].Kind != "modified after Put" {
			t.Errorf("reports = %+v; want one of kind modified after Put", r)
		}
	})
}

// freedStorage frees a Buffer of p that keeps its storage while idle, and
// returns that storage (the whole capacity), which the caller must not use.
func freedStorage(t *testing.T, p *bytepool.Pool) []byte {
	t.Helper()
	for range 100 {
		b := p.GetBuffer()
		b.WriteString("hello")
		stale := b.Bytes()[:b.Cap()]
		idle := p.Stats().Buffers.Idle
		b.Free()
		if p.Stats().Buffers.Idle == idle+1 {
			return stale
		}
	}
	t.Fatal("no Free kept its Buffer in 100 tries")
	return nil
}

// TestPoisonTurnedOnLater checks that slices idle before poison=1 was set,
// which hold anything, are not reported.
func TestPoisonTurnedOnLater(t *testing.T) {
	noGC(t)
	oneP(t)
	got := reports(t)
	var p bytepool.Pool
	b := putKept(t, &p, 200)
	setDebug(t, "poison=1")
	if g := p.Get(200); base(g) != base(b) {
		t.Fatal("Get after Put: a new array; want the slice Put before poison was set")
	}
	if r := got(); len(r) != 0 {
		t.Errorf("reports = %+v; want none for a slice Put before poison=1", r)
	}
}

func TestDoublePut(t *testing.T) {
	debugTest(t, "doubleput=1")
	t.Run("panic", func(t *testing.T) {
		var p bytepool.Pool
		b := putKept(t, &p, 300)
		msg := panicMessage(func() { p.Put(b) })
		if !strings.Contains(msg, "double Put") || !strings.Contains(msg, "[]byte") || !strings.Contains(msg, "cap 320") {
			t.Errorf("panic = %q; want it to contain double Put, []byte and cap 320", msg)
		}
	})
	t.Run("reporter", func(t *testing.T) {
		got := reports(t)
		var p bytepool.Pool
		b := putKept(t, &p, 300)
		p.Put(b)
		r := got()
		if len(r) != 1 || r[0].Kind != "double Put" || r[0].Type != "[]byte" {
			t.Fatalf("reports = %+v; want one double Put of []byte", r)
		}
		g1, g2 := p.Get(300), p.Get(300)
		if base(g1) == base(g2) {
			t.Fatal("two Gets after a double Put returned the same array")
		}
		if base(g1) != base(b) && base(g2) != base(b) {
			t.Error("neither Get returned the slice Put once: want it handed out exactly once")
		}
	})
}

// waitPressure runs GC cycles until poolhooks.UnderPressure reports want
// and, if cond is not nil, cond holds.
func waitPressure(t *testing.T, want bool, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for poolhooks.UnderPressure() != want || cond != nil && !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 20s of GC cycles: UnderPressure() = %v, condition %v; want %v, true",
				poolhooks.UnderPressure(), cond == nil || cond(), want)
		}
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
}

// TestMemoryPressureShrinksBudget checks that near the memory limit the
// idle bytes stay under MaxBytes/8 plus the per-P share, and that the full
// budget returns when the pressure ends.
func TestMemoryPressureShrinksBudget(t *testing.T) {
	noGC(t) // GC cycles come from the test (and from the memory limit)
	oneP(t) // one P's share of the budget: 2*min(MaxBytes/8, 1 MiB)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	const (
		maxBytes = 16 << 20
		size     = 64 << 10
		puts     = 2 * maxBytes / size
		bound    = maxBytes/8 + 2<<20
	)
	p := bytepool.Pool{MaxBytes: maxBytes}
	fill := func() bytepool.Stats {
		for range puts {
			p.Put(make([]byte, size))
		}
		return p.Stats()
	}
	waitPressure(t, false, nil)
	st := fill()
	if st.IdleBytes <= bound || !raceEnabled && st.IdleBytes != maxBytes {
		t.Fatalf("without pressure: IdleBytes = %d; want %d (more than %d under -race)", st.IdleBytes, maxBytes, bound)
	}

	// With GC off, the heap goal is the memory limit: pressure, without
	// making the collector run all the time.
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	debug.SetMemoryLimit(int64(ms.HeapAlloc) + 512<<20)
	waitPressure(t, true, func() bool { return p.Stats().Idle == 0 })
	before := p.Stats()
	st = fill()
	if st.IdleBytes > bound {
		t.Errorf("under pressure: IdleBytes = %d; want at most MaxBytes/8 + one P's share = %d", st.IdleBytes, bound)
	}
	// Under -race the engine drops some Puts at random before the budget.
	if d := st.Drops.Budget + st.Drops.Random - before.Drops.Budget - before.Drops.Random; d < puts-bound/size {
		t.Errorf("under pressure: %d of %d Puts dropped for the budget (or at random); want at least %d", d, puts, puts-bound/size)
	}

	debug.SetMemoryLimit(math.MaxInt64)
	waitPressure(t, false, nil)
	st = fill()
	if st.IdleBytes <= bound || !raceEnabled && st.IdleBytes != maxBytes {
		t.Errorf("after the pressure ended: IdleBytes = %d; want %d again (more than %d under -race)", st.IdleBytes, maxBytes, bound)
	}
}

// TestDebugPutSubslice: in debug mode, a Put of a slice whose address
// proves it does not start its allocation (the tail of a large buffer, an
// odd offset into a small one) is reported and dropped, and counted in
// Drops.Subslice; the slices Get returns, and their heads, are kept
// (golang/go#23199's cousin: the budget would count 96 bytes for a 64 KiB
// array).
func TestDebugPutSubslice(t *testing.T) {
	big := make([]byte, 64<<10)
	small := make([]byte, 1000)
	cases := []struct {
		name   string
		b      []byte
		report bool
	}{
		{"tail of 64 KiB at odd offset", big[len(big)-100:], true},
		{"64 KiB from byte 8192-16", big[8192-16:], true}, // cap > 32 KiB, not page-aligned
		{"small at odd offset", small[3:], true},
		{"whole 64 KiB", big, false},
		{"head of 64 KiB", big[:100], false},
		{"small from 8", small[8:], false}, // aligned: not detectable
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			debugTest(t, "doubleput=1")
			got := reports(t)
			var p bytepool.Pool
			p.Put(tc.b)
			st := p.Stats()
			r := got()
			if tc.report {
				if len(r) != 1 || r[0].Kind != "Put of a sub-slice" || !strings.Contains(r[0].Message, "does not start where its allocation starts") {
					t.Fatalf("reports = %+v; want one \"Put of a sub-slice\"", r)
				}
				if st.Drops.Subslice != 1 || st.Puts != 1 || st.Idle != 0 {
					t.Errorf("Drops.Subslice %d, Puts %d, Idle %d; want 1, 1, 0", st.Drops.Subslice, st.Puts, st.Idle)
				}
				return
			}
			if len(r) != 0 || st.Drops.Subslice != 0 {
				t.Errorf("reports = %+v, Drops.Subslice %d; want none", r, st.Drops.Subslice)
			}
		})
	}
}

// TestDebugPutSubsliceDefaultPanics: without a reporter the report panics,
// as the other debug reports do, and debug off checks nothing.
func TestDebugPutSubsliceDefaultPanics(t *testing.T) {
	big := make([]byte, 64<<10)
	var p bytepool.Pool
	if msg := panicMessage(func() { p.Put(big[len(big)-100:]) }); msg != "" {
		t.Fatalf("debug off: Put panicked: %s", msg)
	}
	debugTest(t, "poison=1")
	msg := panicMessage(func() { p.Put(big[len(big)-101:]) })
	if !strings.HasPrefix(msg, "bytepool.Put: []byte (cap 101") {
		t.Errorf("panic = %q; want bytepool.Put: []byte (cap 101...", msg)
	}
}

// TestGetPutNotSubslice: every slice Get hands out passes the sub-slice
// check, for every class and above MaxSize, so debug mode never refuses
// the pool's own memory.
func TestGetPutNotSubslice(t *testing.T) {
	debugTest(t, "doubleput=1")
	got := reports(t)
	var p bytepool.Pool
	for c := 0; c < sizeclass.NumClasses && sizeclass.Size(c) <= 2*bytepool.DefaultMaxSize; c++ {
		n := sizeclass.Size(c)
		p.Put(p.Get(n))
		p.Put(p.Get(n - 1)[:0])
	}
	if r := got(); len(r) != 0 {
		t.Fatalf("reports = %+v; want none", r)
	}
}
