// Package bug reproduces the shape of xtaci/smux commit 1295209
// (https://github.com/xtaci/smux/commit/129520968deae78607478da6808f35b17598b2a4,
// "Fix memory leak caused by buffer capacity modification during read operations
// preventing successful allocator recycling"): a stream keeps each received frame
// twice, in buffers (the read cursor) and in heads (kept "for recycle"), but both
// slices store the very same *[]byte from the size-class allocator. tryRead
// advances the cursor in place with *buffers[0] = (*buffers[0])[n:], which also
// rewrites the slice header that heads[0] points to. When the frame is fully
// consumed, heads[0] is handed back to the allocator still carrying the advanced
// header from this use (length 0, capacity shrunk), so the allocator rejects it
// or files it in the wrong size class. The fix keeps the cursor as a plain []byte
// copy of the header and only ever recycles the untouched head pointer.
//
// Fixed twin: buffers holds []byte cursors; only the untouched head pointers are
// recycled.
package bug

import (
	"errors"
	"io"
	"math/bits"
	"sync"
)

// ---- alloc.go: power-of-two allocator over sync.Pool ----

type Allocator struct {
	buffers []sync.Pool
}

func NewAllocator() *Allocator {
	alloc := new(Allocator)
	alloc.buffers = make([]sync.Pool, 17) // 1B -> 64K
	for k := range alloc.buffers {
		i := k
		alloc.buffers[k].New = func() any {
			b := make([]byte, 1<<uint32(i))
			return &b
		}
	}
	return alloc
}

func msb(size int) int { return bits.Len32(uint32(size)) - 1 }

func (alloc *Allocator) Get(size int) *[]byte {
	if size <= 0 || size > 65536 {
		return nil
	}
	b := msb(size)
	if size != 1<<b {
		b++
	}
	p := alloc.buffers[b].Get().(*[]byte)
	*p = (*p)[:size]
	return p
}

func (alloc *Allocator) Put(p *[]byte) error {
	if p == nil {
		return errors.New("allocator Put() incorrect buffer size")
	}
	c := cap(*p)
	if c == 0 || c > 65536 || c != 1<<msb(c) {
		return errors.New("allocator Put() incorrect buffer size")
	}
	alloc.buffers[msb(c)].Put(p)
	return nil
}

var defaultAllocator = NewAllocator()

// ---- stream.go ----

type Session struct {
	conn    io.Reader
	tokens  int
	tokenMu sync.Mutex
}

func (s *Session) returnTokens(n int) {
	s.tokenMu.Lock()
	s.tokens += n
	s.tokenMu.Unlock()
}

type stream struct {
	sess *Session

	buffers [][]byte  // ordered incoming data (read cursors)
	heads   []*[]byte // heads of the buffers above, kept for recycle

	bufferLock sync.Mutex
}

// pushBytes appends a received frame.
func (s *stream) pushBytes(pbuf *[]byte) {
	s.bufferLock.Lock()
	defer s.bufferLock.Unlock()
	s.buffers = append(s.buffers, *pbuf)
	s.heads = append(s.heads, pbuf)
}

func (s *stream) tryRead(b []byte) (n int, err error) {
	if len(b) == 0 {
		return 0, nil
	}
	s.bufferLock.Lock()
	if len(s.buffers) > 0 {
		n = copy(b, s.buffers[0])
		s.buffers[0] = s.buffers[0][n:]

		// recycle the buffer once fully consumed
		if len(s.buffers[0]) == 0 {
			s.buffers[0] = nil
			s.buffers = s.buffers[1:]
			defaultAllocator.Put(s.heads[0])
			s.heads = s.heads[1:]
		}
	}
	s.bufferLock.Unlock()

	if n > 0 {
		s.sess.returnTokens(n)
		return n, nil
	}
	return 0, io.EOF
}

func (s *stream) writeTo(w io.Writer) (n int64, err error) {
	for {
		var buf []byte
		var head *[]byte
		s.bufferLock.Lock()
		if len(s.buffers) > 0 {
			buf = s.buffers[0]
			head = s.heads[0]
			s.buffers = s.buffers[1:]
			s.heads = s.heads[1:]
		}
		s.bufferLock.Unlock()

		if buf == nil {
			return n, nil
		}
		nw, ew := w.Write(buf)
		s.sess.returnTokens(len(buf))
		defaultAllocator.Put(head)
		n += int64(nw)
		if ew != nil {
			return n, ew
		}
	}
}

// recvFrame reads one frame payload from the session connection.
func (s *Session) recvFrame(st *stream, length int) error {
	pNewbuf := defaultAllocator.Get(length)
	if pNewbuf == nil {
		return errors.New("bad frame length")
	}
	if _, err := io.ReadFull(s.conn, *pNewbuf); err != nil {
		defaultAllocator.Put(pNewbuf)
		return err
	}
	st.pushBytes(pNewbuf)
	return nil
}
