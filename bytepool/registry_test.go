package bytepool_test

import (
	"strings"
	"testing"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// TestDefaultStats: the package-level functions' pool has its Stats.
func TestDefaultStats(t *testing.T) {
	noGC(t)
	oneP(t)
	before := bytepool.DefaultStats()
	bytepool.Put(bytepool.Get(1000))
	bytepool.Put(bytepool.Get(1000))
	after := bytepool.DefaultStats()
	if d := after.Gets - before.Gets; d != 2 {
		t.Errorf("Gets grew by %d; want 2", d)
	}
	if d := after.Puts - before.Puts; d != 2 {
		t.Errorf("Puts grew by %d; want 2", d)
	}
	if after.IdleBytes <= 0 && !raceEnabled {
		t.Errorf("IdleBytes = %d; want > 0", after.IdleBytes)
	}
}

// TestRegister: a registered bytepool shows in pool.Snapshot in the
// generic form (AsPoolStats) and in bytepool.Snapshot with IdleBytes and
// MaxBytes; nil registers the default pool; Unregister removes both.
func TestRegister(t *testing.T) {
	noGC(t)
	oneP(t)
	p := &bytepool.Pool{MaxBytes: 1 << 20}
	bytepool.Register("bytepool-test", p)
	bytepool.Register("bytepool-default-test", nil)
	defer bytepool.Unregister("bytepool-default-test")
	b := putKept(t, p, 4000)
	_ = b
	buf := p.GetBuffer()
	buf.WriteString("x")
	buf.Free()

	generic := find(pool.Snapshot(), "bytepool-test")
	if generic == nil {
		t.Fatal("pool.Snapshot has no bytepool-test")
	}
	st := p.Stats()
	if want := st.AsPoolStats(); generic.Stats != want {
		t.Errorf("pool.Snapshot: %+v; want %+v", generic.Stats, want)
	}
	if generic.Gets < 2 || generic.Idle < 1 {
		t.Errorf("pool.Snapshot: %+v; want Gets >= 2, Idle >= 1", generic.Stats)
	}
	var got *bytepool.Named
	for _, n := range bytepool.Snapshot() {
		if n.Name == "bytepool-test" {
			got = &n
		}
	}
	if got == nil {
		t.Fatal("bytepool.Snapshot has no bytepool-test")
	}
	if got.MaxBytes != 1<<20 || got.IdleBytes != st.IdleBytes || got.IdleBytes < 4096 {
		t.Errorf("bytepool.Snapshot: MaxBytes %d, IdleBytes %d; want %d, %d (>= 4096)", got.MaxBytes, got.IdleBytes, 1<<20, st.IdleBytes)
	}
	if find(pool.Snapshot(), "bytepool-default-test") == nil {
		t.Error("the default pool (Register with nil) is not in pool.Snapshot")
	}

	bytepool.Unregister("bytepool-test")
	if find(pool.Snapshot(), "bytepool-test") != nil {
		t.Error("pool.Snapshot still has bytepool-test after Unregister")
	}
	for _, n := range bytepool.Snapshot() {
		if n.Name == "bytepool-test" {
			t.Error("bytepool.Snapshot still has bytepool-test after Unregister")
		}
	}
	msg := panicMessage(func() { bytepool.Register("bytepool-default-test", p) })
	if !strings.HasPrefix(msg, "pool.Register: duplicate name") {
		t.Errorf("second Register panicked with %q; want pool.Register: duplicate name", msg)
	}
}

func find(ns []pool.Named, name string) *pool.Named {
	for i := range ns {
		if ns[i].Name == name {
			return &ns[i]
		}
	}
	return nil
}

// TestAsPoolStatsIdentity: the generic form keeps the engine's identity
// Puts-Drops == (Gets-Misses)+Evicted+Idle once the pool is quiescent.
func TestAsPoolStatsIdentity(t *testing.T) {
	noGC(t)
	oneP(t)
	var p bytepool.Pool
	var held [][]byte
	for i := range 200 {
		held = append(held, p.Get(16+i*37))
	}
	for _, b := range held {
		p.Put(b)
	}
	for i := range 50 {
		buf := p.GetBuffer()
		buf.WriteString(strings.Repeat("y", i*3))
		buf.Free()
		p.Put(p.Get(i * 100))
	}
	s := p.Stats().AsPoolStats()
	if s.Puts-s.Drops != s.Gets-s.Misses+s.Evicted+uint64(s.Idle) {
		t.Errorf("%+v: Puts-Drops = %d; want (Gets-Misses)+Evicted+Idle = %d", s, s.Puts-s.Drops, s.Gets-s.Misses+s.Evicted+uint64(s.Idle))
	}
}

// TestDropsByReason: the reasons add up to the generic Drops, Buffers'
// budget drops included.
func TestDropsByReason(t *testing.T) {
	noGC(t)
	oneP(t)
	// 400 Buffers of 64 bytes against a budget of 4 KiB: even with the
	// race detector's random drops, far more than the budget is offered.
	p := bytepool.Pool{MaxBytes: 4096}
	var bufs []*bytepool.Buffer
	for range 400 {
		b := p.GetBuffer()
		b.WriteString("z")
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		b.Free()
	}
	p.Put(make([]byte, 3))
	st := p.Stats()
	d := st.DropsByReason()
	if d.Total() != st.AsPoolStats().Drops || d.TooSmall != 1 || d.Budget == 0 {
		t.Errorf("DropsByReason = %+v (total %d); want total %d, TooSmall 1, Budget > 0", d, d.Total(), st.AsPoolStats().Drops)
	}
}
