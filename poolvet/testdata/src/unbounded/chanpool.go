package unbounded

import "bytes"

// A buffered channel used as a pool: it bounds how many buffers it keeps,
// not how large each is (unrolled/render#85).
type chanBufPool struct {
	c   chan *bytes.Buffer
	max int
}

func (p *chanBufPool) Get() *bytes.Buffer {
	select {
	case b := <-p.c:
		return b
	default:
		return new(bytes.Buffer)
	}
}

func (p *chanBufPool) Put(b *bytes.Buffer) { // want Put:`pool:handoff\(1\)`
	b.Reset()
	select {
	case p.c <- b: // want `b \(\*bytes.Buffer\) is sent back to a channel pool without a capacity check`
	default:
	}
}

type chanBufPool2 struct {
	c   chan *bytes.Buffer
	max int
}

func (p *chanBufPool2) Get() *bytes.Buffer {
	select {
	case b := <-p.c:
		return b
	default:
		return new(bytes.Buffer)
	}
}

// The fix: an oversized buffer is replaced by a fresh one; silent.
func (p *chanBufPool2) Put(b *bytes.Buffer) {
	b.Reset()
	if b.Cap() > p.max {
		b = bytes.NewBuffer(make([]byte, 0, p.max))
	}
	select {
	case p.c <- b:
	default:
	}
}

// A work queue, not a pool: nothing takes buffers back out without
// waiting; silent.
type chanWork struct{ c chan *bytes.Buffer }

func (w *chanWork) Submit(b *bytes.Buffer) bool { // want Submit:`pool:handoff\(1\)`
	select {
	case w.c <- b:
		return true
	default:
		return false
	}
}

func (w *chanWork) Run(handle func(*bytes.Buffer)) {
	for b := range w.c {
		handle(b)
	}
}

// A leaky pool of fixed-size []byte whose Put keeps whatever a caller
// hands it: a larger buffer of the caller's own stays pinned, and Get
// hands out buffers of sizes it never made (minio/minio#20342).
type slabPool struct {
	c    chan []byte
	size int
}

func (p *slabPool) Get() []byte {
	select {
	case b := <-p.c:
		return b
	default:
		return make([]byte, p.size)
	}
}

func (p *slabPool) Put(b []byte) { // want Put:`pool:handoff\(1\)`
	select {
	case p.c <- b: // want `b \(\[\]byte\), a buffer of any size a caller hands in, is sent back to a channel pool without a capacity check`
	default:
	}
}

// The fix: only buffers of the pool's own size go back.
type slabPoolFixed struct {
	c    chan []byte
	size int
}

func (p *slabPoolFixed) Get() []byte {
	select {
	case b := <-p.c:
		return b
	default:
		return make([]byte, p.size)
	}
}

func (p *slabPoolFixed) Put(b []byte) { // want Put:`pool:handoff\(1\)`
	if cap(b) != p.size {
		return
	}
	select {
	case p.c <- b:
	default:
	}
}
