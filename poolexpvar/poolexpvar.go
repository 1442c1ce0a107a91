// Package poolexpvar publishes the statistics of every registered pool (see
// pool.Register and bytepool.Register) as the expvar variable "poolkit": a
// JSON object mapping each pool's name to its counters, served with the
// other expvar variables at /debug/vars. Import it for its side effect:
//
//	import _ "github.com/poolkit/pool/poolexpvar"
//
// Each pool's entry has the fields of pool.Stats (see docs/metrics.md for
// what each counts). A pool registered with bytepool.Register also has
// IdleBytes (bytes held by its idle slices and Buffers, counted at class
// size), MaxBytes (its byte budget) and DropsByReason (its Drops split by
// reason: Budget, TooLarge, TooSmall, Random, Subslice; see
// bytepool.Stats.DropsByReason).
//
// It is a separate package so that importing pool does not pull expvar,
// and with it net/http, into every program.
package poolexpvar

import (
	"expvar"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// Name is the expvar variable's name.
const Name = "poolkit"

func init() {
	expvar.Publish(Name, expvar.Func(Value))
}

// bytepoolEntry is the entry of a pool registered with bytepool.Register.
type bytepoolEntry struct {
	pool.Stats
	IdleBytes     int64
	MaxBytes      int64
	DropsByReason bytepool.Drops
}

// Value returns what the variable shows: pool name -> statistics
// (pool.Stats, with the byte counters added for bytepools).
func Value() any {
	m := make(map[string]any)
	for _, n := range pool.Snapshot() {
		m[n.Name] = n.Stats
	}
	for _, n := range bytepool.Snapshot() {
		if _, ok := m[n.Name]; !ok {
			continue // unregistered from package pool only
		}
		m[n.Name] = bytepoolEntry{
			Stats:         n.AsPoolStats(),
			IdleBytes:     n.IdleBytes,
			MaxBytes:      n.MaxBytes,
			DropsByReason: n.DropsByReason(),
		}
	}
	return m
}
