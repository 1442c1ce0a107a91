package sizeclass

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestBoundaries checks Ceil and Floor at n-1, n and n+1 for every class
// boundary n.
func TestBoundaries(t *testing.T) {
	for c := 0; c < NumClasses; c++ {
		n := Size(c)
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			if got := Ceil(n); got != c {
				t.Errorf("Ceil(%d) = %d; want %d", n, got, c)
			}
			if got := Floor(n); got != c {
				t.Errorf("Floor(%d) = %d; want %d", n, got, c)
			}
			wantCeil := c // n-1 still needs class c, except below the smallest
			if c == 0 {
				wantCeil = 0
			}
			if got := Ceil(n - 1); got != wantCeil {
				t.Errorf("Ceil(%d) = %d; want %d", n-1, got, wantCeil)
			}
			if got := Floor(n - 1); got != c-1 {
				t.Errorf("Floor(%d) = %d; want %d", n-1, got, c-1)
			}
			if c+1 < NumClasses {
				if got := Ceil(n + 1); got != c+1 {
					t.Errorf("Ceil(%d) = %d; want %d", n+1, got, c+1)
				}
				if got := Floor(n + 1); got != c {
					t.Errorf("Floor(%d) = %d; want %d", n+1, got, c)
				}
			}
		})
	}
}

// TestAgainstLinearSearch compares both lookups with a linear scan of the
// table over every n up to 64 KiB and sampled n above.
func TestAgainstLinearSearch(t *testing.T) {
	check := func(n int) {
		ceil, floor := -1, -1
		for c := 0; c < NumClasses; c++ {
			if Size(c) <= n {
				floor = c
			}
			if ceil < 0 && Size(c) >= n {
				ceil = c
			}
		}
		if got := Ceil(n); got != ceil {
			t.Fatalf("Ceil(%d) = %d; want %d", n, got, ceil)
		}
		if got := Floor(n); got != floor {
			t.Fatalf("Floor(%d) = %d; want %d", n, got, floor)
		}
	}
	for n := 0; n <= 64<<10; n++ {
		check(n)
	}
	for n := 64 << 10; n <= MaxSize; n += 4093 {
		check(n)
	}
	check(MaxSize)
}

func TestTable(t *testing.T) {
	if Size(0) != MinSize {
		t.Errorf("Size(0) = %d; want %d", Size(0), MinSize)
	}
	if Size(NumClasses-1) != MaxSize {
		t.Errorf("Size(NumClasses-1) = %d; want %d", Size(NumClasses-1), MaxSize)
	}
	if got := Floor(MaxSize + 1); got != NumClasses-1 {
		t.Errorf("Floor(MaxSize+1) = %d; want %d", got, NumClasses-1)
	}
	for c := 1; c < NumClasses; c++ {
		lo, hi := Size(c-1), Size(c)
		if hi <= lo {
			t.Fatalf("Size(%d) = %d <= Size(%d) = %d", c, hi, c-1, lo)
		}
		// Four classes per doubling: each step is at most 25%.
		if float64(hi)/float64(lo) > 1.25 {
			t.Errorf("Size(%d)/Size(%d) = %d/%d > 1.25", c, c-1, hi, lo)
		}
		if c >= 4 && Size(c) != 2*Size(c-4) {
			t.Errorf("Size(%d) = %d; want 2*Size(%d) = %d", c, Size(c), c-4, 2*Size(c-4))
		}
	}
}

// TestDocTable checks that the table written out in the package comment is
// the one the code computes.
func TestDocTable(t *testing.T) {
	f, err := os.Open("sizeclass.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "//\t")
		var c, size, lo, hi, plo, phi int
		var end byte
		if _, err := fmt.Sscanf(line, "%d %d [%d, %d] [%d, %d%c", &c, &size, &lo, &hi, &plo, &phi, &end); err != nil {
			continue
		}
		rows++
		if c != rows-1 {
			t.Fatalf("row %d names class %d", rows-1, c)
		}
		if size != Size(c) || hi != Size(c) || plo != Size(c) {
			t.Errorf("class %d: row says size %d, Get up to %d, Put from %d; want %d", c, size, hi, plo, Size(c))
		}
		if Ceil(lo) != c || Ceil(hi) != c || (lo > 0 && Ceil(lo-1) != c-1) {
			t.Errorf("class %d: row says Get(n) for n in [%d, %d]; Ceil disagrees", c, lo, hi)
		}
		if Floor(plo) != c || (end == ')' && (Floor(phi-1) != c || Floor(phi) != c+1)) {
			t.Errorf("class %d: row says Put files [%d, %d%c; Floor disagrees", c, plo, phi, end)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows != NumClasses {
		t.Errorf("package comment lists %d classes; want %d", rows, NumClasses)
	}
}

// TestLogUniformWaste checks the cap/len figure claimed in the package
// comment: over log-uniform sizes from 16 B to 64 KiB the mean of
// Size(Ceil(n))/n stays below 1.15.
func TestLogUniformWaste(t *testing.T) {
	const steps = 1 << 16
	sum := 0.0
	for i := 0; i < steps; i++ {
		n := int(math.Round(16 * math.Pow(2, 12*(float64(i)+0.5)/steps)))
		sum += float64(Size(Ceil(n))) / float64(n)
	}
	mean := sum / steps
	if mean > 1.15 {
		t.Errorf("mean cap/len = %.3f; want <= 1.15", mean)
	}
	t.Logf("mean cap/len over log-uniform 16 B..64 KiB: %.4f", mean)
}

func BenchmarkCeil(b *testing.B) {
	s := 0
	for i := 0; b.Loop(); i++ {
		s += Ceil(i & (1<<20 - 1))
	}
	sink = s
}

var sink int
