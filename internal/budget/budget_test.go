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
