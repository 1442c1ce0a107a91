package benchmarks

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// resultsOf runs ops operations of strategy s with output captured.
func resultsOf(s *Strategy, ops int) []byte {
	var out bytes.Buffer
	inst := s.New(&out)
	if inst.Close != nil {
		defer inst.Close()
	}
	for i := range ops {
		inst.Op(i)
	}
	return out.Bytes()
}

// testWorkloads are the workloads with gcpressure cut to 20 writers a
// round, which is enough to compare results.
func testWorkloads() []*Workload {
	ws := Workloads()
	for i, w := range ws {
		if w.Name == "gcpressure" {
			ws[i] = newGCPressure(20)
		}
	}
	return ws
}

// TestStrategiesAgree checks that every strategy of a workload produces
// the same results as allocating afresh, over enough operations for the
// pooled objects to be reused many times (and, for bloat, for huge and
// small buffers to follow each other).
func TestStrategiesAgree(t *testing.T) {
	for _, w := range testWorkloads() {
		t.Run(w.Name, func(t *testing.T) {
			ops := 300
			if w.Name == "gcpressure" {
				ops = 3
			}
			want := resultsOf(w.Strategy("alloc"), ops)
			if len(want) == 0 {
				t.Fatal("alloc wrote no results")
			}
			for _, s := range w.Strategies[1:] {
				if got := resultsOf(&s, ops); !bytes.Equal(got, want) {
					t.Errorf("%s: results differ from alloc's (%d bytes vs %d):\n%.300s\nwant\n%.300s", s.Name, len(got), len(want), got, want)
				}
			}
		})
	}
}

// TestGzipRoundTrip checks that what the gzip workload writes decompresses
// to its inputs (concatenated gzip members read as one stream).
func TestGzipRoundTrip(t *testing.T) {
	const ops = 7
	for _, s := range Lookup("gzip").Strategies {
		zr, err := gzip.NewReader(bytes.NewReader(resultsOf(&s, ops)))
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		var want []byte
		for i := range ops {
			want = append(want, gzipPayloads[i%len(gzipPayloads)]...)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: decompressed %d bytes; want the %d bytes compressed", s.Name, len(got), len(want))
		}
	}
}

// TestRowsContent checks the rows every strategy reads against the table.
func TestRowsContent(t *testing.T) {
	for _, s := range Lookup("rows").Strategies {
		lines := strings.Split(strings.TrimSuffix(string(resultsOf(&s, 1)), "\n"), "\n")
		if len(lines) != rowsLimit {
			t.Fatalf("%s: got %d rows; want %d", s.Name, len(lines), rowsLimit)
		}
		if want := fmt.Sprintf("1\tuser 001\tuser001@example.org\t%s", loglineEpoch.AddDate(0, 0, 1).Format("2006-01-02")); lines[0] != want {
			t.Errorf("%s: first row %q; want %q", s.Name, lines[0], want)
		}
	}
}

// TestJSONDecodeReset checks that a reused Event decodes each document
// as a new one does: nothing left over from a larger document.
func TestJSONDecodeReset(t *testing.T) {
	src := &mutexSource[*Event]{kit: kit[*Event]{new: func() *Event { return new(Event) }, reset: (*Event).Reset, maxIdle: 1}}
	var got, want bytes.Buffer
	op, _ := jsondecodeOp(src, &got)
	ref, _ := jsondecodeOp(allocSource[*Event]{func() *Event { return new(Event) }}, &want)
	for _, i := range []int{3, 2, 1, 0, 3, 0, 2} { // largest first, then smaller ones
		op(i)
		ref(i)
	}
	if got.String() != want.String() {
		t.Errorf("reused Event:\n%s\nwant\n%s", got.String(), want.String())
	}
}

// TestMeasure checks the harness on figures known in advance: the
// free lists keep their objects across gcpressure's forced GCs (hit ratio
// 1) while sync.Pool loses them (hit ratio 0, two cycles per round), and
// allocs/op is a fraction, not rounded: replicate's sync.Pool boxes the
// slice header once per Put.
func TestMeasure(t *testing.T) {
	opt := Options{Time: 20 * time.Millisecond}
	gc := newGCPressure(20)
	if m := Measure(gc, gc.Strategy("chan"), opt); m.HitRatio < 0.99 {
		t.Errorf("gcpressure chan: hit ratio %v; want 1", m.HitRatio)
	}
	m := Measure(gc, gc.Strategy("syncpool"), opt)
	if m.HitRatio > 0.01 {
		t.Errorf("gcpressure syncpool: hit ratio %v; want 0", m.HitRatio)
	}
	if m.GCPerMop < 2e6 {
		t.Errorf("gcpressure: %v GC cycles per million rounds; want at least 2e6 (two forced per round)", m.GCPerMop)
	}
	rep := Lookup("replicate")
	if m := Measure(rep, rep.Strategy("alloc"), opt); m.HitRatio != 0 || m.AllocsPerOp < 0.99 || m.AllocsPerOp > 1.01 || m.Ops < 100 {
		t.Errorf("replicate alloc: %+v; want hit ratio 0, 1 alloc/op, many ops", m)
	}
	if !raceEnabled { // under -race, pools drop Puts at random, and fewer operations run
		if m := Measure(rep, rep.Strategy("syncpool"), opt); m.AllocsPerOp < 0.99 || m.AllocsPerOp > 1.01 || m.BytesPerOp < 23 || m.BytesPerOp > 25 {
			t.Errorf("replicate syncpool: %v allocs/op, %v B/op; want 1 and 24 (the boxed slice header)", m.AllocsPerOp, m.BytesPerOp)
		}
		if m := Measure(rep, rep.Strategy("syncpoolptr"), opt); m.AllocsPerOp > 0.01 || m.HitRatio < 0.99 {
			t.Errorf("replicate syncpoolptr: %v allocs/op, hit ratio %v; want 0 and 1", m.AllocsPerOp, m.HitRatio)
		}
		bl := Lookup("bloat")
		if m := Measure(bl, bl.Strategy("syncpool"), opt); m.RetainedBytes < bloatHuge {
			t.Errorf("bloat syncpool: retained %v bytes; want at least one huge buffer (%d) still held after one GC", m.RetainedBytes, bloatHuge)
		}
	}
}

// TestStackValueNoAlloc checks what the stackvalue workload rests on:
// without a pool its Point stays on the stack (no allocation at all),
// while the escaping tinystruct allocates one per operation.
func TestStackValueNoAlloc(t *testing.T) {
	for _, tt := range []struct {
		workload string
		want     float64
	}{{"stackvalue", 0}, {"tinystruct", 1}} {
		inst := Lookup(tt.workload).Strategy("alloc").New(nil)
		i := 0
		if got := testing.AllocsPerRun(1000, func() { inst.Op(i); i++ }); got != tt.want {
			t.Errorf("%s alloc: %v allocs per operation; want %v", tt.workload, got, tt.want)
		}
	}
}
