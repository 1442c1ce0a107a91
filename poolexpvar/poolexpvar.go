// Package poolexpvar publishes the statistics of every registered pool (see
// pool.Register) as the expvar variable "poolkit": a JSON object mapping each
// pool's name to its counters, served with the other expvar variables at
// /debug/vars. Import it for its side effect:
//
//	import _ "github.com/poolkit/pool/poolexpvar"
//
// It is a separate package so that importing pool does not pull expvar,
// and with it net/http, into every program.
package poolexpvar

import (
	"expvar"

	"github.com/poolkit/pool"
)

// Name is the expvar variable's name.
const Name = "poolkit"

func init() {
	expvar.Publish(Name, expvar.Func(Value))
}

// Value returns what the variable shows: pool name -> statistics.
func Value() any {
	m := make(map[string]pool.Stats)
	for _, n := range pool.Snapshot() {
		m[n.Name] = n.Stats
	}
	return m
}
