package pool_test

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/pool"
)

type thing struct{ buf [64]byte }

// withDebug turns on POOLDEBUG settings for one test.
func withDebug(t *testing.T, settings string) {
	prev := pool.SetDebug(settings)
	t.Cleanup(func() { pool.SetDebug(prev); pool.SetReporter(nil) })
}

// reports collects reports for one test.
type reports struct {
	mu sync.Mutex
	rs []pool.Report
}

func collect(t *testing.T) *reports {
	r := new(reports)
	pool.SetReporter(func(rep pool.Report) {
		r.mu.Lock()
		r.rs = append(r.rs, rep)
		r.mu.Unlock()
	})
	t.Cleanup(func() { pool.SetReporter(nil) })
	return r
}

func (r *reports) get() []pool.Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]pool.Report(nil), r.rs...)
}

// putKept puts x and reports whether the pool cached it (under -race Put
// drops at random).
func putKept[T any](p *pool.Pool[T], x T) bool {
	d := p.Stats().Drops
	p.Put(x)
	return p.Stats().Drops == d
}

func TestDoublePutPanics(t *testing.T) {
	withDebug(t, "doubleput=1")
	noGC(t)
	var p pool.Pool[*thing]
	x := new(thing)
	for !putKept(&p, x) {
		x = new(thing)
	}
	defer func() {
		r := recover()
		msg, _ := r.(string)
		if !strings.Contains(msg, "double Put") || !strings.Contains(msg, "*pool_test.thing") ||
			!strings.HasPrefix(msg, "pool.Pool.Put: ") {
			t.Fatalf("second Put panicked with %q; want a pool.Pool.Put message naming double Put and *pool_test.thing", r)
		}
	}()
	p.Put(x)
	t.Fatal("second Put of an idle object did not panic")
}

func TestDoublePutReported(t *testing.T) {
	withDebug(t, "doubleput=1")
	noGC(t)
	oneP(t)
	rs := collect(t)
	p := pool.Pool[[]byte]{}
	b := make([]byte, 100)
	for !putKept(&p, b) {
		b = make([]byte, 100)
	}
	p.Put(b) // reported, dropped
	got := rs.get()
	if len(got) != 1 || got[0].Kind != "double Put" || got[0].Type != "[]byte" || !strings.Contains(got[0].Message, "cap 100") {
		t.Fatalf("reports = %+v; want one double Put of []byte with its capacity", got)
	}
	if first, second := p.Get(), p.Get(); first == nil || second != nil {
		t.Fatalf("Gets after a reported double Put = %v, %v; want the slice once, then nil", first != nil, second != nil)
	}
	// Taken out and put back once is fine.
	p.Put(b)
	if n := len(rs.get()); n != 1 {
		t.Fatalf("Put after Get reported again: %d reports", n)
	}
}

// TestDoublePutNoFalseReports checks that objects that left the pool (Get,
// Keep refusal, GC release) are forgotten by the double-Put check.
func TestDoublePutNoFalseReports(t *testing.T) {
	withDebug(t, "doubleput=1")
	rs := collect(t)
	p := pool.Pool[*thing]{
		New:  func() *thing { return new(thing) },
		Keep: func(x *thing) bool { return x.buf[0] == 0 },
	}
	var held []*thing
	for range 100 {
		held = append(held, p.Get())
	}
	held[0].buf[0] = 1 // Keep refuses it
	for _, x := range held {
		p.Put(x)
	}
	for range 4 {
		if !pool.GCAndTrim() {
			t.Fatal("trimmer did not run")
		}
	}
	if n := pool.DebugIdle(&p); n != p.Stats().Idle {
		t.Fatalf("double-Put set holds %d objects; want Idle = %d", n, p.Stats().Idle)
	}
	for range 100 {
		x := p.Get()
		x.buf[0] = 0
		p.Put(x)
	}
	if got := rs.get(); len(got) != 0 {
		t.Fatalf("reports = %+v; want none", got)
	}
}

//go:noinline
func leakOne(p *pool.Pool[*thing]) {
	x := p.Get()
	x.buf[1] = 1
	// x is dropped without Put.
}

func TestLeakReported(t *testing.T) {
	withDebug(t, "leak=1")
	rs := collect(t)
	p := pool.Pool[*thing]{New: func() *thing { return new(thing) }}
	for range 3 {
		leakOne(&p)
	}
	ok := p.Get()
	p.Put(ok) // not a leak
	var got []pool.Report
	for i := 0; i < 20 && len(got) == 0; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		got = rs.get()
	}
	if len(got) != 1 {
		t.Fatalf("reports = %+v; want exactly one (one call site)", got)
	}
	r := got[0]
	if r.Kind != "leak" || r.Type != "*pool_test.thing" || !strings.Contains(r.Message, "leakOne") ||
		!strings.Contains(r.Stack, "TestLeakReported") {
		t.Fatalf("report = %+v; want a leak of *pool_test.thing at leakOne with the Get's stack", r)
	}
}

func TestLeakDefaultReporterWritesStderr(t *testing.T) {
	withDebug(t, "leak=1")
	var out syncBuffer
	pool.SetDebugOutput(&out)
	defer pool.SetDebugOutput(nil)
	p := pool.Pool[*thing]{New: func() *thing { return new(thing) }}
	func() {
		x := p.Get()
		x.buf[2] = 1
	}()
	for i := 0; i < 20 && out.String() == ""; i++ {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := out.String(); !strings.HasPrefix(got, "poolkit: leak: ") {
		t.Fatalf("default reporter wrote %q; want a line beginning %q", got, "poolkit: leak: ")
	}
}

func TestSetDebugBadInput(t *testing.T) {
	for _, in := range []string{"leak=x", "nosuch=1", "leak=-3"} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.HasPrefix(msg, "pool.SetDebug: ") {
					t.Errorf("SetDebug(%q) panicked with %q; want a pool.SetDebug: message", in, msg)
				}
			}()
			pool.SetDebug(in)
		}()
	}
	if prev := pool.SetDebug(""); prev != "" {
		t.Fatalf("settings after failed SetDebug calls = %q; want them unchanged (empty)", prev)
	}
}

// syncBuffer is a bytes.Buffer safe for the cleanup goroutine to write
// while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
