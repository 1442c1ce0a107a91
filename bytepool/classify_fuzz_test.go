package bytepool_test

import (
	"math"
	"testing"

	"github.com/poolkit/pool/bytepool"
	"github.com/poolkit/pool/internal/sizeclass"
)

// classifySeeds are (n, capacity) pairs at and around class boundaries, the
// pool's MaxSize and the table's ends.
var classifySeeds = [][2]uint64{
	{0, 0}, {1, 15}, {16, 16}, {17, 17}, {20, 19}, {21, 21}, {63, 64}, {65, 79},
	{1000, 1023}, {1024, 1025}, {4097, 5119}, {1 << 20, 1<<20 - 1}, {1<<20 + 1, 1 << 20},
	{sizeclass.MaxSize - 1, sizeclass.MaxSize}, {sizeclass.MaxSize, sizeclass.MaxSize + 1},
	{math.MaxUint64, math.MaxUint64}, {math.MaxInt64, 1 << 62},
}

// FuzzClassify checks the size-class lookups and the pool's filing for any
// request n and any capacity: go test -fuzz=FuzzClassify ./bytepool
//
//   - Ceil(n) is the smallest class whose size is at least n;
//   - Floor(c) is the largest class whose size is at most c (-1 below the
//     smallest class, the last class from MaxSize on);
//   - Get(n) returns len n and cap the size of class Ceil(n) (exactly n
//     above the pool's MaxSize);
//   - Put of a slice of capacity c counts under class Floor(c) (or as too
//     small or too large), and a Get of that class's size returns a slice
//     whose capacity is the class size.
func FuzzClassify(f *testing.F) {
	for _, s := range classifySeeds {
		f.Add(s[0], s[1])
	}
	var p bytepool.Pool
	const maxSize = bytepool.DefaultMaxSize
	f.Fuzz(func(t *testing.T, n, capacity uint64) {
		// The lookups, over their whole domains.
		req := int(n % (sizeclass.MaxSize + 1))
		c := sizeclass.Ceil(req)
		if c < 0 || c >= sizeclass.NumClasses || sizeclass.Size(c) < req || c > 0 && sizeclass.Size(c-1) >= req {
			t.Fatalf("Ceil(%d) = %d; want the smallest class of size >= %d", req, c, req)
		}
		x := int(capacity >> 1) // any non-negative int
		switch fl := sizeclass.Floor(x); {
		case x < sizeclass.MinSize:
			if fl != -1 {
				t.Fatalf("Floor(%d) = %d; want -1", x, fl)
			}
		case fl < 0 || fl >= sizeclass.NumClasses || sizeclass.Size(fl) > x ||
			fl+1 < sizeclass.NumClasses && sizeclass.Size(fl+1) <= x:
			t.Fatalf("Floor(%d) = %d; want the largest class of size <= %d", x, fl, x)
		}

		// Get: sizes up to twice the pool's MaxSize.
		m := int(n % (2 * maxSize))
		want := m
		if m <= maxSize {
			want = sizeclass.Size(sizeclass.Ceil(m))
		}
		if b := p.Get(m); len(b) != m || cap(b) != want {
			t.Fatalf("Get(%d): len %d, cap %d; want len %d, cap %d", m, len(b), cap(b), m, want)
		}

		// Put: where a capacity is filed, and what its class hands out.
		k := int(capacity % (2 * maxSize))
		before := p.Stats()
		p.Put(make([]byte, 0, k))
		after := p.Stats()
		fl := sizeclass.Floor(k)
		switch {
		case k == 0:
			if after.Puts != before.Puts {
				t.Fatalf("Put(cap 0): Puts %d -> %d; want it ignored", before.Puts, after.Puts)
			}
			return
		case k < sizeclass.MinSize:
			if after.Drops.TooSmall != before.Drops.TooSmall+1 {
				t.Fatalf("Put(cap %d): Drops.TooSmall %d -> %d; want +1", k, before.Drops.TooSmall, after.Drops.TooSmall)
			}
			return
		case k > maxSize:
			if after.Drops.TooLarge != before.Drops.TooLarge+1 {
				t.Fatalf("Put(cap %d): Drops.TooLarge %d -> %d; want +1", k, before.Drops.TooLarge, after.Drops.TooLarge)
			}
			return
		}
		for i := range after.Classes {
			want := before.Classes[i].Puts
			if i == fl {
				want++
			}
			if got := after.Classes[i].Puts; got != want {
				t.Fatalf("Put(cap %d): class %d (size %d) Puts %d -> %d; want %d (filed under class %d)",
					k, i, after.Classes[i].Size, before.Classes[i].Puts, got, want, fl)
			}
		}
		size := sizeclass.Size(fl)
		if g := p.Get(size); len(g) != size || cap(g) != size {
			t.Fatalf("Get(%d) after Put(cap %d): len %d, cap %d; want len and cap %d", size, k, len(g), cap(g), size)
		}
	})
}

// TestClassLookups: the fast paths' branch-free lookups agree with package
// sizeclass on every size up to 1 MiB and around every class boundary up
// to sizeclass.MaxSize.
func TestClassLookups(t *testing.T) {
	check := func(n int) {
		if n <= sizeclass.MaxSize {
			if got, want := bytepool.CeilClass(n), sizeclass.Ceil(n); got != want {
				t.Fatalf("ceilClass(%d) = %d; want %d", n, got, want)
			}
		}
		if n >= sizeclass.MinSize && n <= sizeclass.MaxSize {
			if got, want := bytepool.FloorClass(n), sizeclass.Floor(n); got != want {
				t.Fatalf("floorClass(%d) = %d; want %d", n, got, want)
			}
		}
	}
	for n := range 1<<20 + 1 {
		check(n)
	}
	for c := range sizeclass.NumClasses {
		for d := -2; d <= 2; d++ {
			check(sizeclass.Size(c) + d)
		}
	}
}
