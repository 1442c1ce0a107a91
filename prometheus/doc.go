// Package prometheus exports the statistics of every pool registered with
// pool.Register, pool.RegisterFunc or bytepool.Register as Prometheus
// metrics. It lives in its
// own module, github.com/poolkit/pool/prometheus, so that the core module
// does not depend on client_golang.
//
// Import it under another name, since its name is the one of client_golang's
// package:
//
//	import (
//		"bytes"
//		"log"
//		"net/http"
//
//		"github.com/poolkit/pool"
//		poolprom "github.com/poolkit/pool/prometheus"
//		"github.com/prometheus/client_golang/prometheus"
//		"github.com/prometheus/client_golang/prometheus/promhttp"
//	)
//
//	var bufs = pool.Pool[*bytes.Buffer]{New: func() *bytes.Buffer { return new(bytes.Buffer) }}
//
//	func main() {
//		pool.Register("bufs", &bufs)
//		prometheus.MustRegister(poolprom.NewCollector())
//		http.Handle("/metrics", promhttp.Handler())
//		log.Fatal(http.ListenAndServe(":9090", nil))
//	}
//
// A scrape of /metrics then includes, for each registered pool:
//
//	# HELP poolkit_gets_total Total number of Get calls on the pool (for a bytepool: Gets of slices, Buffers' storage included, and GetBuffer calls that looked for an idle Buffer with storage).
//	# TYPE poolkit_gets_total counter
//	poolkit_gets_total{pool="bufs"} 1042
//
// and likewise the counters poolkit_misses_total, poolkit_puts_total,
// poolkit_drops_total and poolkit_evicted_total and the gauge
// poolkit_idle_objects, all labelled pool="name". A bytepool.Pool
// registered with bytepool.Register (a nil pool registers the default one)
// also has the gauges poolkit_bytepool_idle_bytes and
// poolkit_bytepool_max_bytes and the counter poolkit_bytepool_drops_total,
// labelled pool="name" and reason="budget", "too_large", "too_small",
// "random" or "subslice". The hit ratio of a pool over five minutes is
//
//	1 - rate(poolkit_misses_total[5m]) / rate(poolkit_gets_total[5m])
//
// Scraping never blocks Get or Put: it reads the counters that each pool
// keeps without taking the pool's locks (see pool.Snapshot).
package prometheus
