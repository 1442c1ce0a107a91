// Package bug reproduces the shape of xtaci/smux#101
// (https://github.com/xtaci/smux/pull/101, commit 80f1038 "allocator
// optimization: avoid tmp obj's allocation and gc"): the frame allocator keeps
// one sync.Pool per power-of-two size class. New builds a plain []byte, Get
// type-asserts to []byte and re-slices it, and Put hands the slice value back
// to the class pool. The session's receive loop takes a frame buffer from the
// default allocator, and streams give the buffer back once the reader drained
// it, so every recycled frame boxes a new slice header on Put. The fix pools
// *[]byte instead.
//
// Check: nonpointer (the slice value stored by Allocator.Put; reported at the
// class pool Put).
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
			return make([]byte, 1<<uint32(i))
		}
	}
	return alloc
}

// Get returns a buffer of length size from the best fitting class.
func (alloc *Allocator) Get(size int) []byte {
	if size <= 0 || size > 65536 {
		return nil
	}
	bits := msb(size)
	if size == 1<<bits {
		return alloc.buffers[bits].Get().([]byte)[:size]
	}
	return alloc.buffers[bits+1].Get().([]byte)[:size]
}

// Put gives a buffer back; its capacity must be a power of two.
func (alloc *Allocator) Put(buf []byte) error {
	bits := msb(cap(buf))
	if cap(buf) == 0 || cap(buf) > 65536 || cap(buf) != 1<<bits {
		return errors.New("allocator Put() incorrect buffer size")
	}
	alloc.buffers[bits].Put(buf) // want `nonpointer`
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
	heads   [][]byte
	buffers [][]byte
}

func (s *Stream) pushBytes(buf []byte) {
	s.mu.Lock()
	s.buffers = append(s.buffers, buf)
	s.heads = append(s.heads, buf)
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
	if _, err := io.ReadFull(s.conn, newbuf); err != nil {
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
