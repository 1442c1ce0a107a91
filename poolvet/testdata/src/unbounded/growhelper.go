package unbounded

import (
	"io"
	"sync"
)

// A byte buffer whose ReadFrom grows a local copy of its slice through a
// helper that appends to its argument, pre-sizing it first, and stores the
// copy back (VictoriaMetrics/VictoriaLogs#869).

type ghBuffer struct{ B []byte }

func ghSetLen(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	return append(b[:cap(b)], make([]byte, n-cap(b))...)
}

func (bb *ghBuffer) ReadFrom(r io.Reader) (int64, error) {
	b := bb.B
	start := len(b)
	if cap(b) < 4096 {
		b = ghSetLen(b, 4096) // a minimum, not a bound
	}
	off := start
	for {
		if cap(b)-off < cap(b)/16 {
			b = ghSetLen(b, 2*cap(b))
		}
		n, err := r.Read(b[off:cap(b)])
		off += n
		if err != nil {
			bb.B = b[:off]
			return int64(off - start), err
		}
	}
}

func (bb *ghBuffer) Reset() { bb.B = bb.B[:0] }

type ghPool struct{ p sync.Pool }

func (p *ghPool) Get() *ghBuffer { // want Get:`pool:get`
	if v := p.p.Get(); v != nil {
		return v.(*ghBuffer)
	}
	return &ghBuffer{}
}

func (p *ghPool) Put(bb *ghBuffer) { // want Put:`pool:put\(1\)\+reset`
	bb.Reset()
	p.p.Put(bb) // want `bb \(\*ghBuffer\) is put into the pool without a capacity check, and its field B grows without bound \(ReadFrom appends to it\)`
}

// Silent: the same buffer, with a bound at the Put.
type ghBounded struct{ B []byte }

func (bb *ghBounded) ReadFrom(r io.Reader) (int64, error) {
	b := bb.B
	start := len(b)
	if cap(b) < 4096 {
		b = ghSetLen(b, 4096)
	}
	off := start
	for {
		if cap(b)-off < cap(b)/16 {
			b = ghSetLen(b, 2*cap(b))
		}
		n, err := r.Read(b[off:cap(b)])
		off += n
		if err != nil {
			bb.B = b[:off]
			return int64(off - start), err
		}
	}
}

var ghBoundedPool sync.Pool

func ghPutBounded(bb *ghBounded) {
	if cap(bb.B) > 1<<20 {
		return
	}
	bb.B = bb.B[:0]
	ghBoundedPool.Put(bb)
}

// Silent: a local copy re-sliced and stored back, never appended to.
type ghFixed struct{ B []byte }

func (f *ghFixed) fill(n int) {
	b := f.B
	for i := 0; i < n && i < len(b); i++ {
		b = b[:i+1]
	}
	f.B = b
}

var ghFixedPool sync.Pool

func ghPutFixed(f *ghFixed) {
	f.B = f.B[:0]
	ghFixedPool.Put(f)
}

// A parser that copies each input into its reused buffer
// (wundergraph/graphql-go-tools#881).
type ghParser struct{ b []byte }

func (p *ghParser) Parse(data []byte) int {
	p.b = append(p.b[:0], data...)
	return len(p.b)
}

var ghParsers sync.Pool

func ghPutParser(p *ghParser) {
	p.b = p.b[:0]
	ghParsers.Put(p) // want `p \(\*ghParser\) is put into the pool without a capacity check, and its field b grows without bound \(Parse appends to it\)`
}

// Silent: a string copied into a reused buffer is a name, not a payload.
type ghRequest struct{ uri []byte }

func (r *ghRequest) SetURI(uri string) { r.uri = append(r.uri[:0], uri...) }

var ghRequests sync.Pool

func ghPutRequest(r *ghRequest) {
	r.uri = r.uri[:0]
	ghRequests.Put(r)
}

// Silent: pools by size class, the pool picked by the buffer's capacity
// (coder/websocket's sliding windows): each pool holds one size.
type ghWindow struct{ buf []byte }

var (
	ghWindowsMu sync.Mutex
	ghWindows   = map[int]*sync.Pool{}
)

func (w *ghWindow) write(p []byte) { w.buf = append(w.buf, p...) }

func (w *ghWindow) close() {
	w.buf = w.buf[:0]
	ghWindowsMu.Lock()
	if p := ghWindows[cap(w.buf)]; p != nil {
		p.Put(w)
	}
	ghWindowsMu.Unlock()
}
