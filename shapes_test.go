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
	// The shape the issue found failing to link with -l on amd64.
	fiveFields struct {
		p    *int
		a, b uint32
		c, d uint64
	}
	s1 struct{ a *int }
	s2 struct {
		a *int
		b string
	}
	s4 struct {
		a    *int
		b    string
		c    any
		d, e int8
	}
	s6 struct {
		a, b, c *int
		d, e, f int
	}
	s8 struct {
		a, b, c, d *int
		e, f, g, h string
	}
	n1 struct{ a int64 }
	n5 struct{ a, b, c, d, e int32 }
	n8 struct{ a, b, c, d, e, f, g, h uint64 }
)

// TestValueShapes builds and runs pools of values of many shapes: pointers,
// strings, interfaces, slices, arrays of 2-4 pointers, strings and
// interfaces, structs of 1-8 fields with and without pointers, below, at
// and above the size (32 bytes) beyond which blocks hold fewer values.
// .ci/buildmatrix builds and runs it in every build mode (-race, -l,
// -N -l, -N on this package) and links it for other architectures.
func TestValueShapes(t *testing.T) {
	oneP(t)
	x, y := 1, 2
	roundTrip(t, 7)
	roundTrip(t, "s")
	roundTrip(t, &x)
	roundTrip(t, any(3))
	roundTrip(t, threeFields{1, "a", nil})
	roundTrip(t, [2]*int{&x, &y})
	roundTrip(t, [3]*int{&x, &y, &x})
	roundTrip(t, [4]*int{&x, &y, &x, &y})
	roundTrip(t, [2]any{1, &x})
	roundTrip(t, [3]any{1, "b", &x})
	roundTrip(t, [4]any{1, "b", &x, nil})
	roundTrip(t, twoStrings{"a", "b"})
	roundTrip(t, [3]string{"a", "b", "c"})
	roundTrip(t, [4]string{"a", "b", "c", "d"})
	roundTrip(t, struct {
		s string
		p *int
		b byte
	}{"a", &x, 1})
	roundTrip(t, fiveFields{&x, 1, 2, 3, 4})
	roundTrip(t, s1{&x})
	roundTrip(t, s2{&x, "b"})
	roundTrip(t, s4{&x, "b", 3, 4, 5})
	roundTrip(t, s6{&x, &y, &x, 1, 2, 3})
	roundTrip(t, s8{&x, &y, &x, &y, "e", "f", "g", "h"})
	roundTrip(t, n1{1})
	roundTrip(t, n5{1, 2, 3, 4, 5})
	roundTrip(t, n8{1, 2, 3, 4, 5, 6, 7, 8})
	roundTrip(t, eightPtrs{&x, &y, &x, &y, &x, &y, &x, &y})
	roundTrip(t, mixed64{"a", "b", &x, &y, 1, 2})
	roundTrip(t, [64]byte{1, 2, 3})
	roundTrip(t, big{[9]*int{&x, &y}})
	roundTrip(t, bigNoPtrs{9})

	// []byte is not comparable: check it by hand.
	var p pool.Pool[[]byte]
	b := make([]byte, 3, 8)
	p.Put(b)
	if got := p.Get(); !pool.RaceEnabled && (len(got) != 3 || cap(got) != 8 || &got[0] != &b[0]) {
		t.Errorf("Pool[[]byte]: Get after Put = len %d cap %d; want the slice Put", len(got), cap(got))
	}
}
