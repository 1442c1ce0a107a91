package pool_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/poolkit/pool"
)

var bufPool = pool.Pool[*bytes.Buffer]{
	New:   func() *bytes.Buffer { return new(bytes.Buffer) },
	Reset: (*bytes.Buffer).Reset, // Get never returns a dirty buffer
	// Drop buffers that grew large, so one huge log line does not stay
	// pinned in the pool (golang/go#23199).
	Keep: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 },
}

// timeNow is a fake version of time.Now for the example's deterministic
// output.
func timeNow() time.Time {
	return time.Unix(1136214245, 0)
}

func Log(w io.Writer, key, val string) {
	b := bufPool.Get()
	// Replace this with time.Now() in a real logger.
	b.WriteString(timeNow().UTC().Format(time.RFC3339))
	b.WriteByte(' ')
	b.WriteString(key)
	b.WriteByte('=')
	b.WriteString(val)
	b.WriteByte('\n')
	w.Write(b.Bytes())
	bufPool.Put(b) // b must not be used after this
}

// The log-line buffer of sync.Pool's documentation, with a typed pool.
func ExamplePool() {
	Log(os.Stdout, "path", "/search?q=flowers")
	// Output: 2006-01-02T15:04:05Z path=/search?q=flowers
}

// Stats counts every Get and Put; Misses are the Gets that found the pool
// empty.
func ExamplePool_Stats() {
	var p pool.Pool[[]byte] // zero value: Get returns nil when empty
	b := p.Get()
	if b == nil {
		b = make([]byte, 0, 1024)
	}
	p.Put(b)
	s := p.Stats()
	fmt.Printf("gets=%d misses=%d puts=%d\n", s.Gets, s.Misses, s.Puts)
	// Output: gets=1 misses=1 puts=1
}
