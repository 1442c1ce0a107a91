package budget

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestReserveRelease(t *testing.T) {
	var b Budget
	b.Init(1000)
	if !b.Reserve(600) || !b.Reserve(400) {
		t.Fatal("Reserve within the budget failed")
	}
	if b.Reserve(1) {
		t.Fatal("Reserve beyond the budget succeeded")
	}
	if got := b.Idle(); got != 1000 {
		t.Fatalf("Idle() = %d; want 1000", got)
	}
	b.Release(400)
	if got := b.Idle(); got != 600 {
		t.Fatalf("Idle() after Release(400) = %d; want 600", got)
	}
}

// TestNeverExceeded has goroutines reserve and release concurrently and
// checks, at quiescence, that the invariant holds and idle never went over.
func TestNeverExceeded(t *testing.T) {
	var b Budget
	b.Init(1 << 20)
	var held atomic.Int64
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			var mine []int64
			for i := range 20000 {
				n := int64(1 << (4 + (i+g)%12))
				if i%3 != 2 && b.Reserve(n) {
					if h := held.Add(n); h > 1<<20 {
						t.Errorf("reserved %d bytes; budget is %d", h, 1<<20)
					}
					mine = append(mine, n)
				} else if len(mine) > 0 {
					n := mine[len(mine)-1]
					mine = mine[:len(mine)-1]
					held.Add(-n)
					b.Release(n)
				}
			}
			for _, n := range mine {
				held.Add(-n)
				b.Release(n)
			}
		})
	}
	wg.Wait()
	if got := b.Idle(); got != 0 {
		t.Fatalf("Idle() after everything was released = %d; want 0", got)
	}
}

// TestShrinkUnderPressure checks that under pressure refills stop at
// max/PressureDivisor (plus the credit a P already holds), that a P keeps
// using its credit, and that the full budget returns when pressure ends.
func TestShrinkUnderPressure(t *testing.T) {
	const max = 1 << 20
	var under atomic.Bool
	var b Budget
	b.Init(max)
	b.ShrinkUnderPressure(under.Load)
	reserveAll := func(n int64) (got int64) {
		for b.Reserve(n) {
			got += n
		}
		return got
	}

	under.Store(true)
	if got := reserveAll(1024); got != max/PressureDivisor {
		t.Fatalf("under pressure from an empty budget: reserved %d; want %d", got, max/PressureDivisor)
	}
	if got := b.Free(); got != max-max/PressureDivisor {
		t.Fatalf("under pressure: Free() = %d; want the floor %d", got, max-max/PressureDivisor)
	}

	under.Store(false)
	if got := reserveAll(1024); got != max-max/PressureDivisor {
		t.Fatalf("after the pressure ended: reserved %d more; want the rest of the budget, %d", got, max-max/PressureDivisor)
	}
	if got := b.Idle(); got != max {
		t.Fatalf("after the pressure ended: Idle() = %d; want %d", got, max)
	}

	// Pressure returns while everything is idle: releases go to the
	// credit and free, and refills stop at max/PressureDivisor again.
	under.Store(true)
	b.Release(max)
	if got := reserveAll(1024); got > max/PressureDivisor+2*b.Chunk*int64(len(b.Local)) {
		t.Fatalf("pressure after a full release: reserved %d; want at most %d + the credit slack %d",
			got, max/PressureDivisor, 2*b.Chunk*int64(len(b.Local)))
	}
}
