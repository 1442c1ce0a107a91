package unbounded

import (
	"bytes"
	"strings"
	"sync"

	"github.com/poolkit/pool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func unguarded(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	out := b.String()
	bufPool.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check: one huge buffer stays pinned in the pool \(golang/go#23199\)`
	return out
}

// fmt guards its printer buffer the same way.
func guarded(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	out := b.String()
	if b.Cap() > 64<<10 {
		return out
	}
	bufPool.Put(b)
	return out
}

var slicePool sync.Pool

func appendsUnguarded(parts []string) int {
	p, _ := slicePool.Get().(*[]byte)
	if p == nil {
		p = new([]byte)
	}
	b := (*p)[:0]
	for _, s := range parts {
		b = append(b, s...)
	}
	n := len(b)
	*p = b
	slicePool.Put(p) // want `p \(\*\[\]byte\) is put into the pool without a capacity check`
	return n
}

// A fixed-size scratch buffer never grows: fine.
func fixedSize() {
	p, _ := slicePool.Get().(*[]byte)
	if p == nil {
		b := make([]byte, 4096)
		p = &b
	}
	(*p)[0] = 1
	slicePool.Put(p)
}

// A guard in the wrapper's caller counts.
func release(b *strings.Builder) {
	builderPool.Put(b)
}

var builderPool sync.Pool

func caller(b *strings.Builder) {
	if b.Cap() <= 1<<16 {
		release(b)
	}
}

// A typed pool with a Keep hook bounds itself.
var kept = pool.Pool[*bytes.Buffer]{
	New:  func() *bytes.Buffer { return new(bytes.Buffer) },
	Keep: func(b *bytes.Buffer) bool { return b.Cap() <= 64<<10 },
}

func withKeep(b *bytes.Buffer) { kept.Put(b) }

var unkept pool.Pool[*bytes.Buffer]

func withoutKeep(b *bytes.Buffer) {
	b.Reset()
	unkept.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check`
}

// A deferred Put gets no suggested fix, but is still reported.
func deferred(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer bufPool.Put(b) // want `is put into the pool without a capacity check`
	b.WriteString(s)
	return b.String()
}

var maxKept = 64 << 10

// A size guard in a deferred closure satisfies the check, in either form.
func deferredGuarded(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() {
		if b.Cap() <= maxKept {
			bufPool.Put(b)
		}
	}()
	b.WriteString(s)
	return b.String()
}

func deferredEarlyReturn(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() {
		if b.Cap() > maxKept {
			return
		}
		bufPool.Put(b)
	}()
	b.WriteString(s)
	return b.String()
}

// An unguarded Put in a deferred closure gets the fix inside the closure.
func deferredClosure(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	defer func() {
		bufPool.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check`
	}()
	b.WriteString(s)
	return b.String()
}
