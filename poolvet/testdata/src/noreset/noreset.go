package noreset

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/poolkit/pool"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func noReset(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	bufPool.Put(b) // want `b \(\*bytes.Buffer\) goes back to the pool without Reset and the pool has no Reset hook`
	return out
}

func resetAfterGet(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(s)
	out := b.String()
	bufPool.Put(b)
	return out
}

func resetBeforePut(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	b.WriteString(s)
	out := b.String()
	b.Reset()
	bufPool.Put(b)
	return out
}

func resetInDeferredClosure(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	defer func() {
		b.Reset()
		bufPool.Put(b)
	}()
	b.WriteString(s)
	return b.String()
}

func deferredNoReset(s string) string {
	b := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(b) // want `b \(\*bytes.Buffer\) goes back to the pool without Reset`
	b.WriteString(s)
	return b.String()
}

// getBuffer is a Get wrapper that resets: its callers need not.
func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func viaResettingWrapper(s string) string {
	b := getBuffer()
	b.WriteString(s)
	out := b.String()
	bufPool.Put(b)
	return out
}

// A typed pool with a Reset hook resets on Put.
var hooked = pool.Pool[*strings.Builder]{
	New:   func() *strings.Builder { return new(strings.Builder) },
	Reset: (*strings.Builder).Reset,
}

func withHook(s string) string {
	sb := hooked.Get()
	sb.WriteString(s)
	out := sb.String()
	hooked.Put(sb)
	return out
}

// Without the hook, the builder keeps its contents.
var plain = pool.Pool[*strings.Builder]{New: func() *strings.Builder { return new(strings.Builder) }}

func withoutHook(s string) string {
	sb := plain.Get()
	sb.WriteString(s)
	out := sb.String()
	plain.Put(sb) // want `sb \(\*strings.Builder\) goes back to the pool without Reset`
	return out
}

// grpc's gzip reader: Reset is promoted from the embedded *gzip.Reader.
type reader struct {
	*strings.Reader
}

var readers = sync.Pool{New: func() any { return &reader{strings.NewReader("")} }}

func promoted(s string) (*reader, error) {
	z := readers.Get().(*reader)
	z.Reset(s)
	if len(s) == 0 {
		readers.Put(z)
		return nil, io.EOF
	}
	return z, nil
}

// fasthttp's timer pool: time.Timer.Reset(d) re-arms, it does not clear.
var timers sync.Pool

func timer() {
	t, _ := timers.Get().(*time.Timer)
	if t == nil {
		t = time.NewTimer(time.Second)
	}
	timers.Put(t)
}

// No Reset method, but n is read before it is written: each user counts on
// from the previous one's total (the kettek/apng#13 shape).
type scratch struct{ n int }

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func noMethod() {
	s := scratchPool.Get().(*scratch)
	s.n++
	scratchPool.Put(s) // want `s goes back to the pool with field n still set, and a user of the pool reads it before writing it \(noreset.go:134\)`
}
