// Package bug reproduces the shape of mailru/easyjson#157
// (https://github.com/mailru/easyjson/issues/157, "misusing of sync.Pool"):
// the buffer package keeps one sync.Pool per chunk size and puts the []byte
// chunks themselves into it. Converting the slice to interface{} allocates
// on every Put, which the benchmark shows (32 B/op, 1 alloc/op,
// against none with *[]byte).
//
// Check: nonpointer (a []byte put into a *sync.Pool looked up in a map).
package bug

import "sync"

// PoolConfig contains the allocation and reuse strategy.
type PoolConfig struct {
	StartSize  int
	PooledSize int
	MaxSize    int
}

var config = PoolConfig{StartSize: 128, PooledSize: 512, MaxSize: 32768}

// Reuse pool: chunk size -> pool.
var buffers = map[int]*sync.Pool{}

func init() {
	for l := config.PooledSize; l <= config.MaxSize; l *= 2 {
		buffers[l] = new(sync.Pool)
	}
}

// putBuf puts a chunk to the reuse pool if it can be reused.
func putBuf(buf []byte) {
	size := cap(buf)
	if size < config.PooledSize {
		return
	}
	if c := buffers[size]; c != nil {
		c.Put(buf[:0]) // want `nonpointer`
	}
}

// getBuf gets a chunk from the reuse pool or makes a new one.
func getBuf(size int) []byte {
	if size < config.PooledSize {
		return make([]byte, 0, size)
	}
	if c := buffers[size]; c != nil {
		if v := c.Get(); v != nil {
			return v.([]byte)
		}
	}
	return make([]byte, 0, size)
}

// Buffer is a chain of chunks used for serialization.
type Buffer struct {
	Buf    []byte
	toPool []byte
	bufs   [][]byte
}

// EnsureSpace makes sure the current chunk has at least s free bytes.
func (b *Buffer) EnsureSpace(s int) {
	if cap(b.Buf)-len(b.Buf) >= s {
		return
	}
	l := len(b.Buf)
	if l > 0 {
		next := cap(b.toPool) * 2
		if cap(b.toPool) != cap(b.Buf) {
			// Chunk was reallocated, toPool can be pooled.
			putBuf(b.toPool)
		}
		b.bufs = append(b.bufs, b.Buf)
		l = next
	} else {
		l = config.StartSize
	}
	if l > config.MaxSize {
		l = config.MaxSize
	}
	b.Buf = getBuf(l)
	b.toPool = b.Buf
}

// AppendByte appends one byte.
func (b *Buffer) AppendByte(c byte) {
	if cap(b.Buf) == len(b.Buf) {
		b.EnsureSpace(1)
	}
	b.Buf = append(b.Buf, c)
}

// BuildBytes copies everything into one slice and recycles the chunks.
func (b *Buffer) BuildBytes() []byte {
	ret := make([]byte, 0, b.Size())
	for _, c := range b.bufs {
		ret = append(ret, c...)
		putBuf(c)
	}
	ret = append(ret, b.Buf...)
	putBuf(b.toPool)
	b.bufs, b.Buf, b.toPool = nil, nil, nil
	return ret
}

// Size is the number of bytes written.
func (b *Buffer) Size() int {
	size := len(b.Buf)
	for _, c := range b.bufs {
		size += len(c)
	}
	return size
}
