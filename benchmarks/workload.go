package benchmarks

import (
	"fmt"
	"io"
	"regexp"
	"strings"
)

// A Workload is one job that allocates the same kind of object over and
// over, run by several strategies that obtain those objects differently.
// Its Name is part of poolbench's command line and output and must not
// change.
type Workload struct {
	Name string
	Doc  string

	// Goroutines is how many goroutines share the operations of one
	// measurement; 0 or 1 means the operations run on one goroutine.
	Goroutines int

	// GetsPerOp is how many objects one operation takes from its
	// strategy. Hit ratio is 1 - misses/(ops*GetsPerOp).
	GetsPerOp int

	// Metric is the unit the workload is about, the first one its
	// verdict judges: "ns/op" for most workloads, "hit-ratio" where the
	// question is reuse across GC cycles, "retained-B" where it is memory
	// held, "allocs/op" where it is allocations.
	Metric string

	// Also lists the units the verdict judges besides Metric (a strategy
	// beats another when it is better on one judged unit and worse on
	// none); nil for most workloads.
	Also []string

	// Gate lists the units on which a pooled strategy must beat alloc for
	// pooling to pay; nil means the judged units (Metric and Also). bloat
	// sets it to time: allocating retains nothing, so retained heap can
	// only rank the pools, not decide whether pooling pays.
	Gate []string

	// Baseline names a strategy the verdict quotes next to the
	// recommended one on Metric ("alloc" for most workloads; "syncpool"
	// for bloat, where the question is what sync.Pool keeps). Pooling is
	// always judged against the strategy named "alloc".
	Baseline string

	// Project names the strategies built on this project's pools
	// (pool.Pool, bytepool), in order of preference: the verdict
	// recommends the first one unless a later one beats it.
	Project []string

	Strategies []Strategy
}

// A Strategy is one way of obtaining a workload's objects: allocating
// them, sync.Pool, pool.Pool, a free list, another library.
type Strategy struct {
	Name string
	Doc  string

	// GivesUp says, for a strategy not built on this project's pools,
	// what it gives up compared with them (bounds, stats, GC behaviour);
	// the verdict quotes it when it recommends the strategy.
	GivesUp string

	// New returns fresh state for one measurement: new pools, so that
	// measurements do not share warmed-up objects. When out is not nil,
	// every operation writes a canonical description of its result to
	// out (tests compare these across strategies); when it is nil the
	// operation writes nothing beyond what the workload itself does.
	New func(out io.Writer) Instance
}

// An Instance is a strategy's state for one measurement.
type Instance struct {
	// Op performs operation number i. When the workload has more than
	// one goroutine, Op is called concurrently (never while out is set).
	Op func(i int)

	// Misses reports how many of the objects taken so far had to be
	// created; nil when the strategy cannot observe it (a library that
	// does not say). It must be safe to call when no Op is running.
	Misses func() uint64

	// Gets reports how many objects were taken so far, for strategies
	// whose operations take a varying number (a growing buffer); nil
	// means GetsPerOp per operation, which is also the least counted.
	Gets func() uint64

	// NoReuse says the strategy never reuses an object: its hit ratio
	// is 0 by construction, without counting.
	NoReuse bool

	// Close releases what New acquired besides memory (a database).
	// It may be nil.
	Close func()
}

var registry []*Workload

func register(w *Workload) *Workload {
	for _, o := range registry {
		if o.Name == w.Name {
			panic("benchmarks: workload registered twice: " + w.Name)
		}
	}
	registry = append(registry, w)
	return w
}

// benchNames are the names of the go test benchmarks of the workloads,
// which poolbench's -benchfmt output uses too.
var benchNames = map[string]string{
	"logline": "Logline", "replicate": "Replicate", "jsondecode": "JSONDecode", "gzip": "Gzip",
	"rows": "Rows", "stackvalue": "StackValue", "tinystruct": "Tinystruct", "gcpressure": "GCPressure", "bloat": "Bloat",
}

// Judged returns the units w's verdict judges: Metric, then Also.
func (w *Workload) Judged() []string {
	return append([]string{w.Metric}, w.Also...)
}

// GateUnits returns the units w's verdict judges pooling against alloc
// on: Gate, or the judged units when Gate is nil.
func (w *Workload) GateUnits() []string {
	if w.Gate != nil {
		return w.Gate
	}
	return w.Judged()
}

// IsProject reports whether the strategy named name is built on this
// project's pools.
func (w *Workload) IsProject(name string) bool {
	for _, p := range w.Project {
		if p == name {
			return true
		}
	}
	return false
}

// BenchName returns the name of w's go test benchmark: "Benchmark" + it.
func (w *Workload) BenchName() string {
	if n, ok := benchNames[w.Name]; ok {
		return n
	}
	return w.Name
}

// order is the contract order of the workloads in every report.
var order = []string{"logline", "replicate", "jsondecode", "gzip", "rows", "stackvalue", "tinystruct", "gcpressure", "bloat"}

// Workloads returns every workload in report order. The caller must not
// modify them.
func Workloads() []*Workload {
	ws := make([]*Workload, 0, len(registry))
	for _, name := range order {
		if w := Lookup(name); w != nil {
			ws = append(ws, w)
		}
	}
	return ws
}

// Lookup returns the workload with the given name, or nil.
func Lookup(name string) *Workload {
	for _, w := range registry {
		if w.Name == name {
			return w
		}
	}
	return nil
}

// Strategy returns w's strategy with the given name, or nil.
func (w *Workload) Strategy(name string) *Strategy {
	for i := range w.Strategies {
		if w.Strategies[i].Name == name {
			return &w.Strategies[i]
		}
	}
	return nil
}

// Names returns the names of ws.
func Names(ws []*Workload) []string {
	s := make([]string, len(ws))
	for i, w := range ws {
		s[i] = w.Name
	}
	return s
}

// StrategyNames returns the sorted set of strategy names used by ws.
func StrategyNames(ws []*Workload) []string {
	seen := map[string]bool{}
	var names []string
	for _, w := range ws {
		for _, s := range w.Strategies {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	return names
}

// Select returns the workloads whose names match workload and, in each,
// only the strategies whose names match strategy (both unanchored
// regular expressions, as go test -bench). It returns an error naming
// the valid choices when nothing matches.
func Select(workload, strategy string) ([]*Workload, error) {
	wre, err := regexp.Compile(workload)
	if err != nil {
		return nil, fmt.Errorf("bad -workload %q: %v", workload, err)
	}
	sre, err := regexp.Compile(strategy)
	if err != nil {
		return nil, fmt.Errorf("bad -strategy %q: %v", strategy, err)
	}
	all := Workloads()
	var out []*Workload
	matchedW := false
	for _, w := range all {
		if !wre.MatchString(w.Name) {
			continue
		}
		matchedW = true
		c := *w
		c.Strategies = nil
		for _, s := range w.Strategies {
			if sre.MatchString(s.Name) {
				c.Strategies = append(c.Strategies, s)
			}
		}
		if len(c.Strategies) > 0 {
			out = append(out, &c)
		}
	}
	if !matchedW {
		return nil, fmt.Errorf("unknown workload %q; valid workloads: %s", workload, strings.Join(Names(all), ", "))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no strategy matches %q; valid strategies: %s", strategy, strings.Join(StrategyNames(all), ", "))
	}
	return out, nil
}
