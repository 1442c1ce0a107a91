// Package bug is the fixed twin of xtaci/smux#101
// (https://github.com/xtaci/smux/pull/101): the size-class pools store
// *[]byte, so Put no longer boxes a slice header.
//
// Check: nonpointer (no report expected).
package bug

import (
	"errors"
	"io"
	"sync"
)

var defaultAllocator = NewAllocator()

// Allocator hands out frame buffers of at most 64 KiB.
type Allocator struct {
	buffers []sync.Pool
}

// NewAllocator prepares one pool per size class, 1 B up to 64 KiB.
func NewAllocator() *Allocator {
	alloc := new(Allocator)
	alloc.buffers = make([]sync.Pool, 17)
	for k := range alloc.buffers {
		i := k
		alloc.buffers[k].New = func() interface{} {
			b := make([]byte, 1<<uint32(i))
			return &b
		}
	}
	return alloc
}

// Get returns a buffer of length size from the best fitting class.
func (alloc *Allocator) Get(size int) *[]byte {
	if size <= 0 || size > 65536 {
		return nil
	}
	bits := msb(size)
	if size == 1<<bits {
		p := alloc.buffers[bits].Get().(*[]byte)
		*p = (*p)[:size]
		return p
	}
	p := alloc.buffers[bits+1].Get().(*[]byte)
	*p = (*p)[:size]
	return p
}

// Put gives a buffer back; its capacity must be a power of two.
func (alloc *Allocator) Put(p *[]byte) error {
	if p == nil {
		return errors.New("allocator Put() incorrect buffer size")
	}
	bits := msb(cap(*p))
	if cap(*p) == 0 || cap(*p) > 65536 || cap(*p) != 1<<bits {
		return errors.New("allocator Put() incorrect buffer size")
	}
	alloc.buffers[bits].Put(p)
	return nil
}

func msb(size int) byte {
	var n byte
	for v := uint32(size) >> 1; v != 0; v >>= 1 {
		n++
	}
	return n
}

// Stream buffers the frames received for one logical stream.
type Stream struct {
	mu      sync.Mutex
	heads   []*[]byte
	buffers [][]byte
}

func (s *Stream) pushBytes(p *[]byte) {
	s.mu.Lock()
	s.buffers = append(s.buffers, *p)
	s.heads = append(s.heads, p)
	s.mu.Unlock()
}

// Read copies out of the oldest frame and recycles it once drained.
func (s *Stream) Read(b []byte) (n int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.buffers) == 0 {
		return 0, io.EOF
	}
	n = copy(b, s.buffers[0])
	s.buffers[0] = s.buffers[0][n:]
	if len(s.buffers[0]) == 0 {
		s.buffers[0] = nil
		s.buffers = s.buffers[1:]
		defaultAllocator.Put(s.heads[0])
		s.heads = s.heads[1:]
	}
	return n, nil
}

// Session demultiplexes frames read from conn.
type Session struct {
	conn    io.Reader
	streams map[uint32]*Stream
	mu      sync.Mutex
}

func (s *Session) recvFrame(sid uint32, length int) error {
	newbuf := defaultAllocator.Get(length)
	if newbuf == nil {
		return errors.New("bad frame length")
	}
	if _, err := io.ReadFull(s.conn, *newbuf); err != nil {
		defaultAllocator.Put(newbuf)
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if stream, ok := s.streams[sid]; ok {
		stream.pushBytes(newbuf)
	} else {
		// the stream is gone: recycle right away
		defaultAllocator.Put(newbuf)
	}
	return nil
}
