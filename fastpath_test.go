package pool_test

import (
	"testing"

	"github.com/poolkit/pool"
)

// roundTrip puts a value of T and gets it back, on one goroutine: the value
// comes back from the local block.
func roundTrip[T comparable](t *testing.T, v T) {
	t.Helper()

	var p pool.Pool[T]
	p.Put(v)
	if got := p.Get(); !pool.RaceEnabled && got != v {
		t.Errorf("Pool[%T]: Get after Put = %v; want %v", v, got, v)
	}
	var zero T
	if got := p.Get(); got != zero {
		t.Errorf("Pool[%T]: second Get = %v; want the zero value", v, got)
	}
}

type (
	threeFields struct {
		id   int
		name string
		tags *[]string
	}
	eightPtrs [8]*int
	mixed64   struct {
		a, b string
		c, d *int
		e, f int
	}
	big        struct{ a [9]*int }
	bigNoPtrs  [200]byte
	twoStrings [2]string
)

// TestValueShapes builds and runs pools of values of many shapes around
// maxFastSize: the fast path's nosplit functions must pass the linker's
// nosplit stack check for every shape that takes it (this test failing to
// build is the failure), and values larger than the bound take the locked
// path.
func TestValueShapes(t *testing.T) {
	oneP(t)
	x, y := 1, 2
	roundTrip(t, 7)
	roundTrip(t, "s")
	roundTrip(t, &x)
	roundTrip(t, threeFields{1, "a", nil})
	roundTrip(t, [4]*int{&x, &y, &x, &y})
	roundTrip(t, [2]any{1, &x})
	roundTrip(t, struct {
		s string
		p *int
		b byte
	}{"a", &x, 1})
	roundTrip(t, eightPtrs{&x, &y, &x, &y, &x, &y, &x, &y})
	roundTrip(t, mixed64{"a", "b", &x, &y, 1, 2})
	roundTrip(t, twoStrings{"a", "b"})
	roundTrip(t, [64]byte{1, 2, 3})
	roundTrip(t, big{[9]*int{&x, &y}})
	roundTrip(t, bigNoPtrs{9})
	roundTrip(t, any(3))
	roundTrip(t, [3]any{1, "b", &x})
}
