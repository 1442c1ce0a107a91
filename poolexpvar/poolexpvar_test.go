package poolexpvar_test

import (
	"encoding/json"
	"expvar"
	"testing"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
	"github.com/poolkit/pool/poolexpvar"
)

func TestPublished(t *testing.T) {
	p := pool.Pool[*int]{New: func() *int { return new(int) }}
	pool.Register("expvar-test", &p)
	defer pool.Unregister("expvar-test")
	p.Put(p.Get())

	v := expvar.Get(poolexpvar.Name)
	if v == nil {
		t.Fatalf("expvar %q not published", poolexpvar.Name)
	}
	var got map[string]pool.Stats
	if err := json.Unmarshal([]byte(v.String()), &got); err != nil {
		t.Fatalf("expvar %q is not JSON: %v\n%s", poolexpvar.Name, err, v.String())
	}
	s, ok := got["expvar-test"]
	if !ok || s.Gets != 1 || s.Misses != 1 || s.Puts != 1 {
		t.Fatalf("expvar value = %+v; want expvar-test with Gets 1, Misses 1, Puts 1", got)
	}
}

// TestPublishedBytepool: a pool registered with bytepool.Register shows its
// generic counters and IdleBytes, MaxBytes and DropsByReason, with nothing
// converted by hand.
func TestPublishedBytepool(t *testing.T) {
	p := &bytepool.Pool{MaxBytes: 1 << 20}
	bytepool.Register("expvar-bytepool-test", p)
	defer bytepool.Unregister("expvar-bytepool-test")
	p.Put(make([]byte, 8)) // too small: a drop
	held := p.Get(4000)
	p.Put(held)

	var got map[string]struct {
		pool.Stats
		IdleBytes     int64
		MaxBytes      int64
		DropsByReason bytepool.Drops
	}
	if err := json.Unmarshal([]byte(expvar.Get(poolexpvar.Name).String()), &got); err != nil {
		t.Fatalf("expvar %q is not JSON: %v", poolexpvar.Name, err)
	}
	e, ok := got["expvar-bytepool-test"]
	if !ok {
		t.Fatalf("expvar value has no expvar-bytepool-test: %+v", got)
	}
	st := p.Stats()
	if e.Stats != st.AsPoolStats() || e.IdleBytes != st.IdleBytes || e.MaxBytes != 1<<20 || e.DropsByReason != st.DropsByReason() {
		t.Errorf("expvar entry = %+v; want %+v, IdleBytes %d, MaxBytes %d, DropsByReason %+v",
			e, st.AsPoolStats(), st.IdleBytes, 1<<20, st.DropsByReason())
	}
	if e.DropsByReason.TooSmall != 1 || e.Gets != 1 {
		t.Errorf("expvar entry = %+v; want DropsByReason.TooSmall 1, Gets 1", e)
	}
}
