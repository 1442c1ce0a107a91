package bytepool

import (
	"io"
	"unicode/utf8"

	"github.com/poolkit/pool/internal/pooldebug"
)

// MinRead is the smallest free space ReadFrom asks its reader to fill, as in
// bytes.Buffer.
const MinRead = 512

// A Buffer is a variable-sized buffer of bytes with the write side of
// bytes.Buffer (Write, WriteString, WriteByte, WriteRune, ReadFrom, WriteTo,
// Bytes, String, Len, Cap, Reset, Grow, Truncate, Available,
// AvailableBuffer), whose storage comes from a Pool: it takes a slice of the
// class it needs when it grows, gives the old one back, and gives its storage
// and itself back on Free. Its first storage is as large as what 95% of the
// Pool's recent Buffers needed, so it rarely grows.
//
// When not to use it: for data you read back piecemeal (it has no read side;
// use bytes.Buffer), or when the bytes must outlive the Buffer (copy them or
// use bytes.Buffer).
//
// Get one from GetBuffer or Pool.GetBuffer. The zero value is also an empty
// Buffer ready to use, taking its storage from the default pool; Free returns
// its storage but not the Buffer itself (it belongs to the caller).
//
// A Buffer is not safe for concurrent use (like bytes.Buffer) and must not be
// copied after first use.
type Buffer struct {
	buf    []byte // buf[:len] is the content; storage from s (or allocated above MaxSize)
	s      *state // pool the storage comes from; nil means the default pool
	peak   int    // largest len(buf) seen when the length last went down
	sample uint8  // Frees until this Buffer teaches the learner (1: the next one); 0: not started (teach)
	pooled bool   // the Buffer came from GetBuffer and goes back on Free
	freed  bool   // Free was called and no GetBuffer has handed it out since
}

// GetBuffer returns an empty Buffer whose storage comes from the default
// pool; see Pool.GetBuffer.
func GetBuffer() *Buffer { return defaultPool.GetBuffer() }

// GetBuffer returns an empty Buffer whose storage comes from p. It already
// holds storage of the capacity p has learned its Buffers need, so
// AvailableBuffer can be appended to at once. The caller owns the Buffer
// until Free.
func (p *Pool) GetBuffer() *Buffer {
	s := p.st.Load()
	if s == nil {
		s = p.init()
	}
	// Fast path: an idle Buffer that kept storage of the learned class
	// (nil when the pool has no class).
	if c := s.learn.start.Load(); c != nil {
		if b := c.bufs.Get(); b != nil {
			if pooldebug.On.Load() {
				b.checkPoison()
			}
			b.freed = false
			return b
		}
	}
	return s.newBuffer()
}

// checkPoison checks the storage of b, an idle Buffer that GetBuffer takes
// from a class (cap(b.buf) is the class size), and replaces it if it was
// modified after Free. Debug path: called only when pooldebug.On is set.
func (b *Buffer) checkPoison() {
	if !b.s.checkPoison(b.buf[:cap(b.buf)], "bytepool.GetBuffer", "[]byte of a freed Buffer") {
		b.buf = make([]byte, 0, cap(b.buf)) // modified after Free: drop it
	}
}

// newBuffer is GetBuffer's slow path: an empty Buffer with new storage of
// the learned class (or of minStart bytes if the pool has no class).
func (s *state) newBuffer() *Buffer {
	b := s.spare.Get()
	b.freed = false
	if c := s.learn.start.Load(); c != nil {
		b.buf = s.pool.Get(c.size)[:0]
	} else {
		b.buf = make([]byte, 0, minStart)
	}
	return b
}

// Free returns b's storage to its Pool and, if b came from GetBuffer, b itself
// (a Buffer whose storage is of the size new Buffers start with keeps it, so
// that the next GetBuffer takes both at once). Neither b (if it came from
// GetBuffer) nor any slice returned by b.Bytes or b.AvailableBuffer may be
// used afterwards. Free panics if b came from GetBuffer and was already
// freed (and not handed out again). A Buffer of your own (the zero value)
// is empty after Free and may be used again; freeing it again returns
// nothing.
func (b *Buffer) Free() {
	if b.freed {
		panic("bytepool.Buffer.Free: Buffer freed twice")
	}
	// The learner is taught by one Free in a sampling period (see
	// learn.go); the others only count down.
	if b.sample > 1 {
		b.sample--
	} else {
		b.teach()
	}
	b.peak = 0
	s := b.state()
	if !b.pooled {
		b.release(s)
		return
	}
	b.freed = true
	// Fast path: storage of the class new Buffers start with stays with
	// the Buffer, so the next GetBuffer takes both in one Get.
	if c := s.learn.start.Load(); c != nil && cap(b.buf) == c.size {
		b.buf = b.buf[:0]
		if pooldebug.On.Load() {
			s.poison(b.buf[:c.size])
		}
		c.bufs.Put(b)
		return
	}
	b.release(s)
	s.spare.Put(b)
}

// release gives b's storage, if any, back to s: Free's path for storage
// that does not stay with the Buffer.
func (b *Buffer) release(s *state) {
	if b.buf != nil {
		s.pool.Put(b.buf)
		b.buf = nil
	}
}

// state returns the state of b's pool.
func (b *Buffer) state() *state {
	if s := b.s; s != nil {
		return s
	}
	return b.initState()
}

// initState ties a zero Buffer to the default pool (slow path of state).
func (b *Buffer) initState() *state {
	b.s = defaultPool.state()
	return b.s
}

// callGrow calls grow(b, n): Write and WriteString call their slow path,
// b.grow, through it, so that they inline. The inliner charges a call to a
// function parameter 17 rather than 57 (cmd/compile/internal/inline,
// inlineParamCallCost); the same function calling b.grow directly costs 83,
// above the budget of 80, and a shorter fast path than its check, append
// and return does not exist. Inlined, grow is still called out of line, and
// TestWritesInline checks that the writes stay inlinable.
func callGrow(grow func(*Buffer, int), b *Buffer, n int) { grow(b, n) }

// grow makes room for at least n more bytes (slow path of every write).
func (b *Buffer) grow(n int) {
	old := b.buf
	b.buf = b.grown(n)
	if old != nil {
		b.state().pool.Put(old)
	}
}

// grown returns new storage with room for at least n more bytes beyond
// b's contents, which it copies; b's storage is left to the caller.
func (b *Buffer) grown(n int) []byte {
	l := len(b.buf)
	need := l + n
	if need < l {
		panic("bytepool.Buffer: too large")
	}
	s := b.state()
	size := max(need, 2*cap(b.buf))
	if b.buf == nil {
		size = max(need, s.startSize())
	}
	var nb []byte
	if size <= s.maxSize {
		nb = s.pool.Get(size)[:l]
	} else {
		nb = make([]byte, l, size)
	}
	copy(nb, b.buf)
	return nb
}

// shrink notes the length before it goes down, for the learner.
func (b *Buffer) shrink() {
	b.peak = max(b.peak, len(b.buf))
}

// Bytes returns the contents of b. The slice aliases b's storage: it is
// valid only until the next call that modifies b (a write, Reset, Truncate,
// Grow, WriteTo, ReadFrom) and must not be used after Free.
func (b *Buffer) Bytes() []byte { return b.buf }

// String returns the contents of b as a string (a copy). If b is a nil
// pointer, it returns "<nil>".
func (b *Buffer) String() string {
	if b == nil {
		return "<nil>"
	}
	return string(b.buf)
}

// Len returns the number of bytes in b.
func (b *Buffer) Len() int { return len(b.buf) }

// Cap returns the capacity of b's storage.
func (b *Buffer) Cap() int { return cap(b.buf) }

// Available returns how many bytes can be written without growing.
func (b *Buffer) Available() int { return cap(b.buf) - len(b.buf) }

// AvailableBuffer returns an empty slice with b.Available() capacity, to be
// appended to and passed to an immediately following Write call. It is
// valid only until the next call that modifies b.
func (b *Buffer) AvailableBuffer() []byte { return b.buf[len(b.buf):] }

// Reset empties b but keeps its storage for the writes that follow.
func (b *Buffer) Reset() {
	b.shrink()
	b.buf = b.buf[:0]
}

// Truncate discards all but the first n bytes. It panics if n is negative
// or greater than b.Len().
func (b *Buffer) Truncate(n int) {
	if n < 0 || n > len(b.buf) {
		panic("bytepool.Buffer.Truncate: truncation out of range")
	}
	b.shrink()
	b.buf = b.buf[:n]
}

// Grow grows b's capacity, if necessary, to guarantee space for another n
// bytes: after Grow(n), at least n bytes can be written without another
// allocation. It panics if n is negative.
func (b *Buffer) Grow(n int) {
	if n < 0 {
		panic("bytepool.Buffer.Grow: negative count")
	}
	if n > cap(b.buf)-len(b.buf) {
		b.grow(n)
	}
}

// Write appends p to b. It always returns len(p), nil. p may be b's own
// contents (b.Bytes()).
func (b *Buffer) Write(p []byte) (int, error) {
	if len(p) > cap(b.buf)-len(b.buf) {
		callWrite((*Buffer).writeSlow, b, p)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// callWrite calls write(b, p), for Write's slow path; see callGrow.
func callWrite(write func(*Buffer, []byte), b *Buffer, p []byte) { write(b, p) }

// writeSlow is Write when b must grow: p may alias b's storage, so the old
// storage goes back to the pool only after p was copied.
func (b *Buffer) writeSlow(p []byte) {
	old := b.buf
	b.buf = b.grown(len(p))
	b.buf = append(b.buf, p...)
	if old != nil {
		b.state().pool.Put(old)
	}
}

// WriteString appends s to b. It always returns len(s), nil.
func (b *Buffer) WriteString(s string) (int, error) {
	if len(s) > cap(b.buf)-len(b.buf) {
		callGrow((*Buffer).grow, b, len(s))
	}
	b.buf = append(b.buf, s...)
	return len(s), nil
}

// WriteByte appends c to b. It always returns nil.
func (b *Buffer) WriteByte(c byte) error {
	if len(b.buf) == cap(b.buf) {
		b.grow(1)
	}
	b.buf = append(b.buf, c)
	return nil
}

// WriteRune appends the UTF-8 encoding of r to b (U+FFFD for an invalid r).
// It returns the number of bytes written and a nil error.
func (b *Buffer) WriteRune(r rune) (int, error) {
	if uint32(r) < utf8.RuneSelf {
		b.WriteByte(byte(r))
		return 1, nil
	}
	if cap(b.buf)-len(b.buf) < utf8.UTFMax {
		b.grow(utf8.UTFMax)
	}
	l := len(b.buf)
	b.buf = utf8.AppendRune(b.buf, r)
	return len(b.buf) - l, nil
}

// ReadFrom appends data read from r until EOF. It returns the number of bytes
// read and any error other than io.EOF. It panics if r returns a negative or
// too large count.
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) {
	var n int64
	for {
		if cap(b.buf)-len(b.buf) < MinRead {
			b.grow(MinRead)
		}
		l := len(b.buf)
		m, err := r.Read(b.buf[l:cap(b.buf)])
		if m < 0 || m > cap(b.buf)-l {
			panic("bytepool.Buffer.ReadFrom: reader returned invalid count from Read")
		}
		b.buf = b.buf[:l+m]
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// WriteTo writes b's contents to w and, as bytes.Buffer does, removes what was
// written: b is empty after a complete write. It returns the number of bytes
// written and any error from w, or io.ErrShortWrite if w wrote less without
// an error. It panics if w returns an invalid count.
func (b *Buffer) WriteTo(w io.Writer) (int64, error) {
	l := len(b.buf)
	if l == 0 {
		return 0, nil
	}
	m, err := w.Write(b.buf)
	if m < 0 || m > l {
		panic("bytepool.Buffer.WriteTo: invalid Write count")
	}
	b.shrink()
	b.buf = b.buf[:copy(b.buf, b.buf[m:])]
	if err != nil {
		return int64(m), err
	}
	if m != l {
		return int64(m), io.ErrShortWrite
	}
	return int64(m), nil
}

// Interfaces implemented by Buffer.
var (
	_ io.Writer       = (*Buffer)(nil)
	_ io.StringWriter = (*Buffer)(nil)
	_ io.ByteWriter   = (*Buffer)(nil)
	_ io.ReaderFrom   = (*Buffer)(nil)
	_ io.WriterTo     = (*Buffer)(nil)
)
