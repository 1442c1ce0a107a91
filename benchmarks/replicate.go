package benchmarks

import (
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// replicate fills a reused []string with n copies of a string. The object
// is a slice header, not a pointer: sync.Pool boxes it into an interface
// on every Put (one 24-byte allocation, staticcheck SA6002), the usual fix
// is a sync.Pool of *[]string, and pool.Pool[[]string] stores it as is.
var _ = register(&Workload{
	Name:      "replicate",
	Doc:       "fill a reused []string with n copies of a string",
	GetsPerOp: 1,
	Metric:    "ns/op",
	Baseline:  "alloc",
	Project:   []string{"pool"},
	Strategies: kit[[]string]{
		new:     func() []string { return make([]string, 0, replicateMax) },
		reset:   func([]string) {}, // the operation truncates; nothing is held past Put but the backing array
		maxIdle: 64,
	}.strategies(replicateOp,
		Strategy{Name: "syncpoolptr", Doc: "sync.Pool of *[]string: the usual SA6002 workaround, no boxing", New: replicatePtr,
			GivesUp: "no type safety, a *[]string to carry next to the slice, no bound, no stats"},
	),
})

// replicateMax bounds n; operation i replicates replicateN(i) copies.
const replicateMax = 96

func replicateN(i int) int { return 32 + i%(replicateMax-31) }

// replicateWord is the string replicated by operation i (a few distinct
// values, built once).
var replicateWords = func() []string {
	w := make([]string, 7)
	for i := range w {
		w[i] = "shard-" + strconv.Itoa(i)
	}
	return w
}()

// fillReplicate appends n copies of operation i's word to s[:0] and
// writes the result to out when out is not nil.
func fillReplicate(s []string, i int, out io.Writer) []string {
	word := replicateWords[i%len(replicateWords)]
	s = s[:0]
	for range replicateN(i) {
		s = append(s, word)
	}
	if out != nil {
		io.WriteString(out, strings.Join(s, ",")+"\n")
	}
	return s
}

// replicateSink keeps the last filled slice reachable, as a caller
// handing it on would, so the compiler cannot drop the work. The workload
// runs on one goroutine, so a plain field will do.
type replicateSink struct{ last *string }

func (k *replicateSink) use(s []string) {
	if len(s) > 0 {
		k.last = &s[len(s)-1]
	}
}

func replicateOp(src source[[]string], out io.Writer) (func(int), func()) {
	var k replicateSink
	return func(i int) {
		s := src.Get()
		s = fillReplicate(s, i, out)
		k.use(s)
		src.Put(s)
	}, nil
}

// replicatePtr pools *[]string: Put stores a pointer, so nothing is boxed,
// but the caller must keep the pointer around next to the slice.
func replicatePtr(out io.Writer) Instance {
	var misses atomic.Uint64
	p := sync.Pool{New: func() any {
		misses.Add(1)
		s := make([]string, 0, replicateMax)
		return &s
	}}
	var k replicateSink
	return Instance{
		Op: func(i int) {
			sp := p.Get().(*[]string)
			*sp = fillReplicate(*sp, i, out)
			k.use(*sp)
			p.Put(sp)
		},
		Misses: misses.Load,
	}
}
