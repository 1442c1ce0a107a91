package bytepool

import (
	"slices"
	"strings"
	"sync"

	"github.com/poolkit/pool"
)

// DefaultStats returns the counters of the default pool, the one the
// package-level functions (Get, Put, Zeroed, GetBuffer) use; see
// Pool.Stats. (It cannot be called Stats: that is the type's name.)
func DefaultStats() Stats { return defaultPool.Stats() }

// AsPoolStats returns s in the form every poolkit pool reports (what
// pool.Snapshot, the expvar variable of package poolexpvar and the
// Prometheus collector show): each counter is the sum over the slices of
// all size classes and the idle Buffers that keep their storage
// (Stats.Buffers), Drops is the total over all reasons, and Idle counts
// both slices and Buffers.
func (s Stats) AsPoolStats() pool.Stats {
	return pool.Stats{
		Gets:    s.Gets + s.Buffers.Gets,
		Misses:  s.Misses + s.Buffers.Misses,
		Puts:    s.Puts + s.Buffers.Frees,
		Drops:   s.Drops.Total() + s.Buffers.Drops.Total(),
		Evicted: s.Evicted + s.Buffers.Evicted,
		Idle:    s.Idle + s.Buffers.Idle,
	}
}

// DropsByReason returns the drops of slices and of Buffers with storage
// together, by reason: the split of AsPoolStats().Drops.
func (s Stats) DropsByReason() Drops {
	d := s.Drops
	d.add(s.Buffers.Drops)
	return d
}

// Named is the statistics of one pool registered with Register.
type Named struct {
	Name     string
	MaxBytes int64 // the pool's byte budget, after defaults
	Stats
}

// registry holds the pools registered with Register.
var registry struct {
	mu    sync.Mutex
	pools map[string]*Pool // guarded by mu
}

// Register makes p's statistics visible under name, with nothing to
// convert: a nil p registers the default pool (that of the package-level
// functions). p is registered with pool.RegisterFunc, in the form of
// AsPoolStats, so that the expvar variable of package poolexpvar and the
// collector of module github.com/poolkit/pool/prometheus export it as they
// export every pool; and with this package, so that they also export what
// only a bytepool counts (IdleBytes, MaxBytes, Drops by reason), read from
// Snapshot. The registries hold p until Unregister. Register panics, with
// a message beginning "pool.Register:", if name is empty or already
// registered.
func Register(name string, p *Pool) {
	if p == nil {
		p = &defaultPool
	}
	pool.RegisterFunc(name, func() pool.Stats { return p.Stats().AsPoolStats() })
	registry.mu.Lock()
	if registry.pools == nil {
		registry.pools = make(map[string]*Pool)
	}
	registry.pools[name] = p
	registry.mu.Unlock()
}

// Unregister removes the pool registered under name from both registries;
// it does nothing if there is none.
func Unregister(name string) {
	registry.mu.Lock()
	_, ok := registry.pools[name]
	delete(registry.pools, name)
	registry.mu.Unlock()
	if ok {
		pool.Unregister(name)
	}
}

// Snapshot returns the statistics of every pool registered with Register,
// sorted by name. Like pool.Snapshot it never blocks Get or Put; it
// allocates each pool's Stats.Classes.
func Snapshot() []Named {
	registry.mu.Lock()
	out := make([]Named, 0, len(registry.pools))
	ps := make([]*Pool, 0, len(registry.pools))
	for name, p := range registry.pools {
		out = append(out, Named{Name: name})
		ps = append(ps, p)
	}
	registry.mu.Unlock()
	for i, p := range ps {
		out[i].MaxBytes = p.state().maxBytes
		out[i].Stats = p.Stats()
	}
	slices.SortFunc(out, func(a, b Named) int { return strings.Compare(a.Name, b.Name) })
	return out
}
