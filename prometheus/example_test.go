package prometheus_test

import (
	"fmt"

	"github.com/poolkit/pool"
	poolprom "github.com/poolkit/pool/prometheus"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
)

// A registered pool's counters, as a Prometheus scrape shows them. A real
// program registers the collector once, with
// prometheus.MustRegister(poolprom.NewCollector()), and serves
// promhttp.Handler(); see the package documentation.
func ExampleNewCollector() {
	p := pool.Pool[*[]byte]{New: func() *[]byte { b := make([]byte, 0, 512); return &b }}
	pool.Register("scratch", &p)
	defer pool.Unregister("scratch")

	b := p.Get() // a miss: the pool is empty
	p.Put(b)
	b = p.Get() // a hit (unless the race detector dropped b on Put)
	p.Put(b)

	// Drops and Idle are left out here only because, under the race
	// detector, Put drops objects at random.
	var c prometheus.Collector = poolprom.NewCollector()
	out, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain,
		"poolkit_gets_total", "poolkit_puts_total", "poolkit_evicted_total")
	if err != nil {
		panic(err)
	}
	fmt.Print(string(out))
	// Output:
	// # HELP poolkit_evicted_total Total number of idle objects the pool released without handing them out: by garbage-collection trimming, which releases more while the heap is near its memory limit (GOMEMLIMIT).
	// # TYPE poolkit_evicted_total counter
	// poolkit_evicted_total{pool="scratch"} 0
	// # HELP poolkit_gets_total Total number of Get calls on the pool (for a bytepool: Gets of slices, Buffers' storage included, and GetBuffer calls that looked for an idle Buffer with storage).
	// # TYPE poolkit_gets_total counter
	// poolkit_gets_total{pool="scratch"} 2
	// # HELP poolkit_puts_total Total number of Put calls on the pool (for a bytepool: Puts of slices, Buffers' storage included, and Frees that offered a Buffer with its storage).
	// # TYPE poolkit_puts_total counter
	// poolkit_puts_total{pool="scratch"} 2
}
