package poolexpvar_test

import (
	"encoding/json"
	"expvar"
	"testing"

	"github.com/poolkit/pool"
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
