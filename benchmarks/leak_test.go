package benchmarks

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poolkit/pool"
	"github.com/poolkit/pool/bytepool"
)

// TestNoGoroutineLeak is the check users' test suites make with
// go.uber.org/goleak: right after a test that used pools, left objects in
// them and forced GC cycles, no goroutine of the library may be running
// (issue 10: the engine used to keep a trimmer goroutine forever).
func TestNoGoroutineLeak(t *testing.T) {
	var p pool.Pool[*bytes.Buffer]
	q := pool.Pool[*bytes.Buffer]{MinIdle: 16, MaxIdle: 64}
	for range 100 {
		p.Put(new(bytes.Buffer))
		q.Put(new(bytes.Buffer))
		bytepool.Put(bytepool.Get(1000))
	}
	for range 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	goleak.VerifyNone(t)
	if s := q.Stats(); s.Idle == 0 {
		t.Fatalf("MinIdle pool Stats() = %+v after GC; want idle objects kept", s)
	}
	runtime.KeepAlive(&p)
}
