package prometheus

import (
	"fmt"
	"unicode/utf8"

	"github.com/poolkit/pool"
	"github.com/prometheus/client_golang/prometheus"
)

// Metric descriptors. Every metric has the single variable label "pool",
// the name under which the pool was registered with pool.Register or
// pool.RegisterFunc.
var (
	getsDesc = newDesc("poolkit_gets_total",
		"Total number of Get calls on the pool.")
	missesDesc = newDesc("poolkit_misses_total",
		"Total number of Get calls that found the pool empty and allocated a new object.")
	putsDesc = newDesc("poolkit_puts_total",
		"Total number of Put calls on the pool.")
	dropsDesc = newDesc("poolkit_drops_total",
		"Total number of Put calls whose object was not cached (nil, refused by Keep, over MaxIdle, or dropped under the race detector).")
	evictedDesc = newDesc("poolkit_evicted_total",
		"Total number of idle objects released by garbage-collection trimming.")
	idleDesc = newDesc("poolkit_idle_objects",
		"Number of idle objects currently held by the pool (approximate while the pool is in use).")
)

// newDesc returns the descriptor of a metric with the single variable label
// "pool" and no constant labels.
func newDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, []string{"pool"}, nil)
}

// Collector is a prometheus.Collector exporting the statistics (pool.Stats)
// of every pool registered with pool.Register or pool.RegisterFunc at the
// time of each scrape: pools registered or unregistered later appear or
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

// Describe sends the descriptors of the six poolkit metrics.
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
}

// Collect sends one constant metric per pool and statistic, read from
// pool.Snapshot. It does not block Get or Put on any pool.
//
// A pool registered under a name that is not valid UTF-8 cannot be a label
// value; Collect reports it as an invalid metric, which makes the scrape
// report an error (promhttp's default HandlerOpts), instead of letting
// MustNewConstMetric panic in the scraping goroutine.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, n := range pool.Snapshot() {
		if !utf8.ValidString(n.Name) {
			ch <- prometheus.NewInvalidMetric(getsDesc,
				fmt.Errorf("poolkit: pool name %q is not valid UTF-8", n.Name))
			continue
		}
		ch <- prometheus.MustNewConstMetric(getsDesc, prometheus.CounterValue, float64(n.Gets), n.Name)
		ch <- prometheus.MustNewConstMetric(missesDesc, prometheus.CounterValue, float64(n.Misses), n.Name)
		ch <- prometheus.MustNewConstMetric(putsDesc, prometheus.CounterValue, float64(n.Puts), n.Name)
		ch <- prometheus.MustNewConstMetric(dropsDesc, prometheus.CounterValue, float64(n.Drops), n.Name)
		ch <- prometheus.MustNewConstMetric(evictedDesc, prometheus.CounterValue, float64(n.Evicted), n.Name)
		ch <- prometheus.MustNewConstMetric(idleDesc, prometheus.GaugeValue, float64(n.Idle), n.Name)
	}
}

var _ prometheus.Collector = (*Collector)(nil)
