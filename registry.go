package pool

import (
	"slices"
	"strings"
	"sync"
)

// Named is the statistics of one registered pool.
type Named struct {
	Name string
	Stats
}

var registry struct {
	mu    sync.Mutex
	pools map[string]func() Stats // guarded by mu
}

// Register makes p's statistics visible under name to Snapshot and through
// it to the expvar variable of package poolexpvar and the Prometheus
// collector of module github.com/poolkit/pool/prometheus. The registry holds
// p until Unregister. Register panics if p is nil or name is empty or
// already registered, with a message beginning "pool.Register:".
func Register[T any](name string, p *Pool[T]) {
	if p == nil {
		panic("pool.Register: nil *Pool for " + name)
	}
	RegisterFunc(name, p.Stats)
}

// RegisterFunc is Register for any source of Stats, such as a bytepool.Pool
// or a pool type of your own. stats must be safe to call concurrently and
// must not block: Snapshot calls it while metrics are scraped. RegisterFunc
// panics as Register does, and if stats is nil.
func RegisterFunc(name string, stats func() Stats) {
	if strings.TrimSpace(name) == "" {
		panic("pool.Register: empty name")
	}
	if stats == nil {
		panic("pool.Register: nil stats func for " + name)
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if _, dup := registry.pools[name]; dup {
		panic("pool.Register: duplicate name " + name)
	}
	if registry.pools == nil {
		registry.pools = make(map[string]func() Stats)
	}
	registry.pools[name] = stats
}

// Unregister removes the pool registered under name; it does nothing if
// there is none.
func Unregister(name string) {
	registry.mu.Lock()
	delete(registry.pools, name)
	registry.mu.Unlock()
}

// Snapshot returns the statistics of every registered pool, sorted by name.
// It never blocks Get or Put: each pool's Stats reads counters without
// taking the locks that Get and Put use.
func Snapshot() []Named {
	registry.mu.Lock()
	out := make([]Named, 0, len(registry.pools))
	fns := make([]func() Stats, 0, len(registry.pools))
	for name, f := range registry.pools {
		out = append(out, Named{Name: name})
		fns = append(fns, f)
	}
	registry.mu.Unlock()
	for i, f := range fns {
		out[i].Stats = f()
	}
	slices.SortFunc(out, func(a, b Named) int { return strings.Compare(a.Name, b.Name) })
	return out
}
