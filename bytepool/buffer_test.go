package bytepool_test

import (
	"bytes"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/poolkit/pool/bytepool"
)

// chunkReader returns its data at most chunk bytes per Read, then err.
type chunkReader struct {
	data  []byte
	chunk int
	err   error
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p[:min(len(p), r.chunk)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// limitWriter accepts at most limit bytes per Write and then returns err
// (nil makes a short write).
type limitWriter struct {
	out   bytes.Buffer
	limit int
	err   error
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if len(p) <= w.limit {
		return w.out.Write(p)
	}
	w.out.Write(p[:w.limit])
	return w.limit, w.err
}

var errReader = errors.New("reader failed")

// runOps applies the operations encoded in ops to a Buffer from p and to a
// bytes.Buffer, and fails at the first difference in results or contents.
// Each operation is one byte of opcode and one byte of argument.
func runOps(t *testing.T, p *bytepool.Pool, ops []byte) {
	if len(ops) > 256 {
		ops = ops[:256] // bounds the run time of one input
	}
	b := p.GetBuffer()
	var ref bytes.Buffer
	defer func() { b.Free() }()
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%13, int(ops[i+1])
		data := bytes.Repeat([]byte{byte('a' + i%26)}, arg)
		var n1, n2 int64
		var e1, e2 error
		switch op {
		case 0:
			m1, _ := b.Write(data)
			m2, _ := ref.Write(data)
			n1, n2 = int64(m1), int64(m2)
		case 1:
			m1, _ := b.WriteString(string(data))
			m2, _ := ref.WriteString(string(data))
			n1, n2 = int64(m1), int64(m2)
		case 2:
			e1, e2 = b.WriteByte(byte(arg)), ref.WriteByte(byte(arg))
		case 3:
			r := rune(arg) * 4099 // covers 1- to 3-byte runes, surrogates and invalid runes
			if arg == 255 {
				r = -1
			}
			m1, _ := b.WriteRune(r)
			m2, _ := ref.WriteRune(r)
			n1, n2 = int64(m1), int64(m2)
		case 4:
			var err error
			if arg%3 == 0 {
				err = errReader
			}
			n1, e1 = b.ReadFrom(&chunkReader{data: bytes.Repeat(data, 9), chunk: arg%50 + 1, err: orEOF(err)})
			n2, e2 = ref.ReadFrom(&chunkReader{data: bytes.Repeat(data, 9), chunk: arg%50 + 1, err: orEOF(err)})
		case 5:
			var err error
			if arg%2 == 0 {
				err = io.ErrClosedPipe
			}
			w1, w2 := &limitWriter{limit: arg * 3, err: err}, &limitWriter{limit: arg * 3, err: err}
			n1, e1 = b.WriteTo(w1)
			n2, e2 = ref.WriteTo(w2)
			if !bytes.Equal(w1.out.Bytes(), w2.out.Bytes()) {
				t.Fatalf("op %d WriteTo wrote %q; bytes.Buffer wrote %q", i/2, w1.out.Bytes(), w2.out.Bytes())
			}
		case 6:
			b.Reset()
			ref.Reset()
		case 7:
			b.Grow(arg * 37)
			ref.Grow(arg * 37)
			if b.Available() < arg*37 {
				t.Fatalf("op %d: Available() = %d after Grow(%d)", i/2, b.Available(), arg*37)
			}
		case 8:
			k := arg % (ref.Len() + 1)
			b.Truncate(k)
			ref.Truncate(k)
		case 9:
			b.Free()
			b = p.GetBuffer()
			ref = bytes.Buffer{}
		case 10:
			if ref.Len() > 256<<10 {
				break // keep contents (and so the comparisons) small
			}
			big := bytes.Repeat(data[:min(arg, 1)], arg*100) // up to 25 KB: above the fuzz pool's MaxSize
			m1, _ := b.Write(big)
			m2, _ := ref.Write(big)
			n1, n2 = int64(m1), int64(m2)
		case 11:
			m1, _ := b.Write(append(b.AvailableBuffer(), data...))
			m2, _ := ref.Write(append(ref.AvailableBuffer(), data...))
			n1, n2 = int64(m1), int64(m2)
		case 12:
			if s1, s2 := b.String(), ref.String(); s1 != s2 {
				t.Fatalf("op %d: String() = %q; want %q", i/2, s1, s2)
			}
		}
		if n1 != n2 || e1 != e2 {
			t.Fatalf("op %d (%d, %d): got %d, %v; bytes.Buffer: %d, %v", i/2, op, arg, n1, e1, n2, e2)
		}
		if b.Len() != ref.Len() || !bytes.Equal(b.Bytes(), ref.Bytes()) {
			t.Fatalf("op %d (%d, %d): contents %q (len %d); bytes.Buffer: %q (len %d)", i/2, op, arg, b.Bytes(), b.Len(), ref.Bytes(), ref.Len())
		}
		if b.Cap() < b.Len() || b.Available() != b.Cap()-b.Len() {
			t.Fatalf("op %d: Len %d, Cap %d, Available %d", i/2, b.Len(), b.Cap(), b.Available())
		}
	}
}

func orEOF(err error) error {
	if err == nil {
		return io.EOF
	}
	return err
}

// bufferSeeds are operation sequences for FuzzBuffer's seed corpus and for
// TestBufferOps: every operation, growth across classes and above MaxSize,
// short and failed writes, and Free in the middle.
var bufferSeeds = [][]byte{
	{},
	{0, 5, 1, 7, 2, 'x', 3, 200, 3, 255, 12, 0},
	{0, 200, 0, 200, 0, 200, 7, 100, 8, 17, 6, 0, 0, 3},
	{4, 10, 4, 9, 5, 4, 5, 5, 5, 255, 12, 0},
	{10, 5, 10, 9, 8, 100, 11, 30, 9, 0, 11, 40, 5, 1},
	{7, 255, 10, 2, 5, 0, 6, 0, 1, 1, 8, 0, 9, 0, 9, 0},
	{3, 55, 3, 56, 3, 216, 3, 217, 2, 0, 12, 0, 8, 3},
}

func TestBufferOps(t *testing.T) {
	p := &bytepool.Pool{MaxSize: 4096, MaxBytes: 64 << 10}
	for _, ops := range bufferSeeds {
		runOps(t, p, ops)
	}
}

// FuzzBuffer compares Buffer with bytes.Buffer on random operation
// sequences: go test -fuzz=FuzzBuffer ./bytepool
func FuzzBuffer(f *testing.F) {
	for _, ops := range bufferSeeds {
		f.Add(ops)
	}
	p := &bytepool.Pool{MaxSize: 4096, MaxBytes: 64 << 10} // small, so that growth leaves the classes
	f.Fuzz(func(t *testing.T, ops []byte) { runOps(t, p, ops) })
}

func TestBufferPanics(t *testing.T) {
	b := bytepool.GetBuffer()
	b.WriteString("hello")
	wantPanic(t, "bytepool.Buffer.Grow: negative count", func() { b.Grow(-1) })
	wantPanic(t, "bytepool.Buffer.Truncate: truncation out of range", func() { b.Truncate(-1) })
	wantPanic(t, "bytepool.Buffer.Truncate: truncation out of range", func() { b.Truncate(6) })
	b.Free()
	wantPanic(t, "bytepool.Buffer.Free: Buffer freed twice", func() { b.Free() })
}

func TestBufferZeroValue(t *testing.T) {
	var b bytepool.Buffer
	if b.Len() != 0 || b.Cap() != 0 || b.String() != "" {
		t.Fatalf("zero Buffer: Len %d, Cap %d, String %q", b.Len(), b.Cap(), b.String())
	}
	b.WriteString("zero value")
	if got := b.String(); got != "zero value" {
		t.Errorf("String() = %q; want %q", got, "zero value")
	}
	b.Free()
	b.Free() // not from GetBuffer: Free only returns storage, and may repeat
	if b.Len() != 0 || b.Cap() != 0 {
		t.Errorf("zero Buffer after Free: Len %d, Cap %d; want empty", b.Len(), b.Cap())
	}
	b.WriteString("again") // and the Buffer is usable again, as Free's doc says
	if got := b.String(); got != "again" {
		t.Errorf("String() after Free and a write = %q; want %q", got, "again")
	}
	b.Free()
	var nilBuf *bytepool.Buffer
	if got := nilBuf.String(); got != "<nil>" {
		t.Errorf("nil Buffer String() = %q; want <nil>", got)
	}
}

// TestBufferGrowthReturnsStorage checks that growing takes the next class
// from the pool and gives the old storage back.
func TestBufferGrowthReturnsStorage(t *testing.T) {
	noGC(t)
	var p bytepool.Pool
	b := p.GetBuffer()
	if st := p.Stats(); st.Gets != 1 || b.Cap() != bytepool.MinStart {
		t.Fatalf("new Buffer: Gets %d, Cap %d; want 1, %d", st.Gets, b.Cap(), bytepool.MinStart)
	}
	b.Write(make([]byte, 100))
	first := b.Cap()
	before := p.Stats()
	b.Write(make([]byte, first)) // forces growth
	st := p.Stats()
	if st.Gets != before.Gets+1 || st.Puts != before.Puts+1 {
		t.Errorf("one growth: Gets +%d, Puts +%d; want +1, +1", st.Gets-before.Gets, st.Puts-before.Puts)
	}
	if b.Cap() < 2*first {
		t.Errorf("Cap after growth = %d; want >= %d (at least double)", b.Cap(), 2*first)
	}
	b.Free()
	if after := p.Stats(); after.Puts != st.Puts+1 {
		t.Errorf("Free: Puts +%d; want +1", after.Puts-st.Puts)
	}
}

// grows returns how many times a new Buffer from p grows while n bytes are
// written to it in 64-byte pieces, and frees it after a Reset (as callers
// often do).
func grows(p *bytepool.Pool, n int) int {
	b := p.GetBuffer()
	piece := strings.Repeat("x", 64)
	g, last := 0, b.Cap()
	for w := 0; w < n; w += len(piece) {
		b.WriteString(piece)
		if b.Cap() != last {
			g, last = g+1, b.Cap()
		}
	}
	b.Reset()
	b.Free()
	return g
}

// TestBufferLearnsSize checks that new Buffers start at the size recent
// Buffers needed (measured before their Reset), that they then grow at most
// once, and that the learned size follows a workload that shrinks.
func TestBufferLearnsSize(t *testing.T) {
	var p bytepool.Pool
	if g := grows(&p, 3000); g < 2 {
		t.Errorf("before learning: %d growths for 3000 bytes; want >= 2 (start %d)", g, bytepool.MinStart)
	}
	// Three calibrations' worth of Frees once calibrated (the first
	// calibration comes sooner: sampling is denser until then).
	const frees = 3 * bytepool.SampleEveryCalibrated * bytepool.CalibrateEvery
	for range frees {
		grows(&p, 3000)
	}
	if got := p.StartCap(); got < 3000 || got > 4096 {
		t.Errorf("learned start capacity = %d; want in [3000, 4096]", got)
	}
	if g := grows(&p, 3000); g != 0 {
		t.Errorf("after learning: %d growths for 3000 bytes; want 0", g)
	}
	// 1 Buffer in 50 needs 40 KiB: below the 95th percentile, not learned.
	// Old samples lose half their weight per calibration, so it takes about
	// six calibrations for the 3000-byte past to fall below 5%.
	for i := range 3 * frees {
		n := 200
		if i%50 == 0 {
			n = 40 << 10
		}
		grows(&p, n)
	}
	if got := p.StartCap(); got < 200 || got > 256 {
		t.Errorf("start capacity after switching to 200-byte Buffers = %d; want in [200, 256]", got)
	}
	if g := grows(&p, 40<<10); g > 8 {
		t.Errorf("a rare large Buffer grew %d times; want it to double its way (<= 8)", g)
	}
}

func TestWriteRuneMatchesUTF8(t *testing.T) {
	b := bytepool.GetBuffer()
	defer b.Free()
	for _, r := range []rune{'a', 'é', '€', '𝄞', utf8.MaxRune + 1, -1, 0xD800} {
		b.Reset()
		n, err := b.WriteRune(r)
		want := utf8.AppendRune(nil, r)
		if n != len(want) || err != nil || !bytes.Equal(b.Bytes(), want) {
			t.Errorf("WriteRune(%U) = %d, %v, %q; want %d, nil, %q", r, n, err, b.Bytes(), len(want), want)
		}
	}
}

// TestBufferKeepsStorage checks that a freed Buffer whose storage is of the
// start class keeps it, within the budget and visible in Stats, and that a
// grown one gives its storage back to the slice classes.
func TestBufferKeepsStorage(t *testing.T) {
	noGC(t)
	oneP(t)
	var p bytepool.Pool
	b := p.GetBuffer()
	start := b.Cap()
	b.WriteString("hello")
	storage := base(b.Bytes())
	b.Free()
	st := p.Stats()
	kept := st.Buffers.Idle
	if st.Buffers.Frees != 1 || uint64(kept)+st.Buffers.Drops.Random != 1 {
		t.Fatalf("Buffers: Frees %d, Idle %d, random drops %d; want 1, and 1 kept or dropped", st.Buffers.Frees, kept, st.Buffers.Drops.Random)
	}
	if st.IdleBytes != int64(kept*start) || p.BudgetIdle() != st.IdleBytes {
		t.Errorf("IdleBytes %d, budget %d; want %d", st.IdleBytes, p.BudgetIdle(), kept*start)
	}
	b = p.GetBuffer()
	if b.Len() != 0 || b.Cap() != start {
		t.Errorf("reused Buffer: Len %d, Cap %d; want 0, %d", b.Len(), b.Cap(), start)
	}
	if !raceEnabled && base(b.AvailableBuffer()[:1]) != storage {
		t.Errorf("GetBuffer did not hand out the Buffer that kept its storage")
	}
	b.Write(make([]byte, 10*start)) // grows out of the start class
	b.Free()
	st = p.Stats()
	if st.Buffers.Idle != 0 || p.BudgetIdle() != st.IdleBytes {
		t.Errorf("after freeing a grown Buffer: Buffers.Idle %d, budget %d, IdleBytes %d; want 0 and budget == IdleBytes",
			st.Buffers.Idle, p.BudgetIdle(), st.IdleBytes)
	}

	// With no budget, nothing is kept, not even a Buffer's storage.
	none := bytepool.Pool{MaxBytes: -1}
	b = none.GetBuffer()
	b.WriteString("x")
	b.Free()
	if st := none.Stats(); st.Buffers.Idle != 0 || st.IdleBytes != 0 || st.Buffers.Frees != 1 || st.Buffers.Drops.Total() != 1 {
		t.Errorf("MaxBytes -1: Buffers %+v, IdleBytes %d; want one Free, dropped", st.Buffers, st.IdleBytes)
	}
}

// TestWritesInline checks that the compiler inlines the small writes, as it
// does valyala/bytebufferpool's: formatting a log line makes several, and
// each would otherwise pay a call. Write and WriteString stay under the
// inlining budget only through callGrow (buffer.go), so a change to them or
// to the compiler's costs can undo it silently.
func TestWritesInline(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the package with the go command")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	out, err := exec.Command(gotool, "build", "-gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, fn := range []string{"Write", "WriteString", "WriteByte"} {
		if want := "can inline (*Buffer)." + fn + "\n"; !bytes.Contains(out, []byte(want)) {
			t.Errorf("go build -gcflags=-m does not report %q", strings.TrimSpace(want))
		}
	}
}

// TestBufferWriteOwnBytes: Write of the Buffer's own contents (as
// bytes.Buffer allows) survives the growth it causes: the old storage goes
// back to the pool only after it was copied from. With poison=1 a Put
// before the copy would fill it with 0xa5 first.
func TestBufferWriteOwnBytes(t *testing.T) {
	debugTest(t, "poison=1")
	var p bytepool.Pool
	b := p.GetBuffer()
	b.WriteString("abc")
	want := "abc"
	for range 12 {
		b.Write(b.Bytes())
		want += want
		if got := b.String(); got != want {
			t.Fatalf("after Write(Bytes()): %d bytes, first difference at %d; want %d bytes of abc...", len(got), firstDiff(got, want), len(want))
		}
	}
	b.Free()
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
