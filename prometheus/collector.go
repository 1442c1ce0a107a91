package prometheus

import (
	"fmt"
	"unicode/utf8"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
	"github.com/prometheus/client_golang/prometheus"
)

// Metric descriptors. Every metric has the variable label "pool", the name
// under which the pool was registered with pool.Register,
// pool.RegisterFunc or bytepool.Register. The help texts say exactly what
// each counts; docs/metrics.md says it at length.
var (
	getsDesc = newDesc("poolkit_gets_total",
		"Total number of Get calls on the pool (for a bytepool: Gets of slices, Buffers' storage included, and GetBuffer calls that looked for an idle Buffer with storage).")
	missesDesc = newDesc("poolkit_misses_total",
		"Total number of Get calls that found nothing idle to hand out and allocated instead (called New, or made a slice).")
	putsDesc = newDesc("poolkit_puts_total",
		"Total number of Put calls on the pool (for a bytepool: Puts of slices, Buffers' storage included, and Frees that offered a Buffer with its storage).")
	dropsDesc = newDesc("poolkit_drops_total",
		"Total number of Put calls whose object was not cached: nil, refused by Keep, over MaxIdle, over a bytepool's byte budget or size bounds, refused by a debug check, or dropped at random under the race detector.")
	evictedDesc = newDesc("poolkit_evicted_total",
		"Total number of idle objects the pool released without handing them out: by garbage-collection trimming, which releases more while the heap is near its memory limit (GOMEMLIMIT).")
	idleDesc = newDesc("poolkit_idle_objects",
		"Number of idle objects held by the pool now (approximate while the pool is in use).")

	// bytepool pools only (bytepool.Register).
	idleBytesDesc = newDesc("poolkit_bytepool_idle_bytes",
		"Bytes held by a bytepool's idle slices and idle Buffers' storage, counted at class size; never above poolkit_bytepool_max_bytes.")
	maxBytesDesc = newDesc("poolkit_bytepool_max_bytes",
		"A bytepool's byte budget (its MaxBytes after defaults).")
	dropsByReasonDesc = prometheus.NewDesc("poolkit_bytepool_drops_total",
		"Total number of a bytepool's Puts and Buffer Frees that did not cache, by reason: budget (over MaxBytes), too_large (capacity over MaxSize), too_small (capacity under 16 bytes), random (race detector), subslice (debug mode: the slice does not start its allocation). The reasons add up to poolkit_drops_total.",
		[]string{"pool", "reason"}, nil)
)

// newDesc returns the descriptor of a metric with the single variable label
// "pool" and no constant labels.
func newDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, []string{"pool"}, nil)
}

// Collector is a prometheus.Collector exporting the statistics (pool.Stats)
// of every pool registered with pool.Register, pool.RegisterFunc or
// bytepool.Register at the time of each scrape, and for the bytepools
// registered with bytepool.Register also their idle bytes, byte budget and
// drops by reason: pools registered or unregistered later appear or
// disappear at the next scrape.
//
// Collecting calls pool.Snapshot, which reads each pool's counters without
// taking the locks used by Get and Put, so a scrape never blocks Get or Put.
// The figures of one pool are therefore not an atomic snapshot: under load,
// Gets, Puts and Idle may be read at slightly different instants.
//
// Register one Collector per prometheus.Registerer; registering a second
// one with the same registry fails with a duplicate-metrics error, since
// both describe the same metrics.
//
// The zero value is ready to use. A Collector has no state and is safe for
// concurrent use by multiple goroutines.
type Collector struct{}

// NewCollector returns a Collector for all registered pools. Register it
// with prometheus.MustRegister or a prometheus.Registry of your own.
func NewCollector() *Collector { return &Collector{} }

// Describe sends the descriptors of the nine poolkit metrics.
//
// The Collector is a described ("checked") collector rather than an
// unchecked one: the set of metric names and labels is fixed and known in
// advance, only the label values (pool names) vary, so describing them lets
// the registry reject a clash with another collector's poolkit_* metrics at
// registration time and check every collected metric against its
// descriptor. pool.RegisterFunc already guarantees that pool names are
// unique, so Collect never produces two metrics with the same labels.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- getsDesc
	ch <- missesDesc
	ch <- putsDesc
	ch <- dropsDesc
	ch <- evictedDesc
	ch <- idleDesc
	ch <- idleBytesDesc
	ch <- maxBytesDesc
	ch <- dropsByReasonDesc
}

// Collect sends one constant metric per pool and statistic, read from
// pool.Snapshot. It does not block Get or Put on any pool.
//
// A pool registered under a name that is not valid UTF-8 cannot be a label
// value; Collect reports it as an invalid metric, which makes the scrape
// report an error (promhttp's default HandlerOpts), instead of letting
// MustNewConstMetric panic in the scraping goroutine.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	names := make(map[string]bool)
	for _, n := range pool.Snapshot() {
		if !utf8.ValidString(n.Name) {
			ch <- prometheus.NewInvalidMetric(getsDesc,
				fmt.Errorf("poolkit: pool name %q is not valid UTF-8", n.Name))
			continue
		}
		names[n.Name] = true
		ch <- prometheus.MustNewConstMetric(getsDesc, prometheus.CounterValue, float64(n.Gets), n.Name)
		ch <- prometheus.MustNewConstMetric(missesDesc, prometheus.CounterValue, float64(n.Misses), n.Name)
		ch <- prometheus.MustNewConstMetric(putsDesc, prometheus.CounterValue, float64(n.Puts), n.Name)
		ch <- prometheus.MustNewConstMetric(dropsDesc, prometheus.CounterValue, float64(n.Drops), n.Name)
		ch <- prometheus.MustNewConstMetric(evictedDesc, prometheus.CounterValue, float64(n.Evicted), n.Name)
		ch <- prometheus.MustNewConstMetric(idleDesc, prometheus.GaugeValue, float64(n.Idle), n.Name)
	}
	for _, n := range bytepool.Snapshot() {
		if !names[n.Name] {
			continue // unregistered from package pool only, or an invalid name
		}
		ch <- prometheus.MustNewConstMetric(idleBytesDesc, prometheus.GaugeValue, float64(n.IdleBytes), n.Name)
		ch <- prometheus.MustNewConstMetric(maxBytesDesc, prometheus.GaugeValue, float64(n.MaxBytes), n.Name)
		d := n.DropsByReason()
		for _, r := range []struct {
			reason string
			n      uint64
		}{
			{"budget", d.Budget}, {"too_large", d.TooLarge}, {"too_small", d.TooSmall},
			{"random", d.Random}, {"subslice", d.Subslice},
		} {
			ch <- prometheus.MustNewConstMetric(dropsByReasonDesc, prometheus.CounterValue, float64(r.n), n.Name, r.reason)
		}
	}
}

var _ prometheus.Collector = (*Collector)(nil)
