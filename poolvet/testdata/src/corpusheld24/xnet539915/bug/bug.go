// Package bug reproduces the shape of golang/net CL 539915, commit a720b30c
// "http2: allocate buffer pools using pointers to arrays"
// (https://go-review.googlesource.com/c/net/+/539915,
// https://github.com/golang/net/commit/a720b30cbc2733d7b4daaab7a8cac65f3ff5131d):
// the per-stream dataBuffer that holds DATA frame bytes takes its chunks from
// a fixed array of sync.Pools, one per size class. New made []byte values and
// putDataBufferChunk picked the class by length and put the slice value back,
// which allocates a slice header on every recycle (and in every New). The fix
// pools *[N]byte arrays and converts the slice back to an array pointer.
//
// Check: nonpointer (the []byte chunk handed to the class pool in
// putDataBufferChunk; reported at that Put).
package bug

import (
	"errors"
	"fmt"
	"sync"
)

var (
	dataChunkSizeClasses = []int{
		1 << 10,
		2 << 10,
		4 << 10,
		8 << 10,
		16 << 10,
	}
	dataChunkPools = [...]sync.Pool{
		{New: func() interface{} { return make([]byte, 1<<10) }},
		{New: func() interface{} { return make([]byte, 2<<10) }},
		{New: func() interface{} { return make([]byte, 4<<10) }},
		{New: func() interface{} { return make([]byte, 8<<10) }},
		{New: func() interface{} { return make([]byte, 16<<10) }},
	}
)

func getDataBufferChunk(size int64) []byte {
	i := 0
	for ; i < len(dataChunkSizeClasses)-1; i++ {
		if size <= int64(dataChunkSizeClasses[i]) {
			break
		}
	}
	return dataChunkPools[i].Get().([]byte)
}

func putDataBufferChunk(p []byte) {
	for i, n := range dataChunkSizeClasses {
		if len(p) == n {
			dataChunkPools[i].Put(p) // want `nonpointer`
			return
		}
	}
	panic(fmt.Sprintf("unexpected buffer len=%v", len(p)))
}

// dataBuffer queues the DATA bytes of one stream as a list of chunks.
type dataBuffer struct {
	chunks   [][]byte
	r        int
	w        int
	size     int
	expected int64
}

var errEmptyBuffer = errors.New("dataBuffer: nothing to read")

// Read drains bytes into p, recycling every chunk it finishes.
func (b *dataBuffer) Read(p []byte) (int, error) {
	if b.size == 0 {
		return 0, errEmptyBuffer
	}
	var total int
	for len(p) > 0 && b.size > 0 {
		src := b.firstUnread()
		n := copy(p, src)
		p = p[n:]
		total += n
		b.r += n
		b.size -= n
		if b.r == len(b.chunks[0]) {
			putDataBufferChunk(b.chunks[0])
			end := len(b.chunks) - 1
			copy(b.chunks[:end], b.chunks[1:])
			b.chunks[end] = nil
			b.chunks = b.chunks[:end]
			b.r = 0
		}
	}
	return total, nil
}

func (b *dataBuffer) firstUnread() []byte {
	if len(b.chunks) == 1 {
		return b.chunks[0][b.r:b.w]
	}
	return b.chunks[0][b.r:]
}

// Write appends p, taking new chunks from the pools as needed.
func (b *dataBuffer) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		need := int64(len(p))
		if b.expected > need {
			need = b.expected
		}
		chunk := b.tailChunk(need)
		n := copy(chunk[b.w:], p)
		p = p[n:]
		b.w += n
		b.size += n
		b.expected -= int64(n)
	}
	return total, nil
}

func (b *dataBuffer) tailChunk(need int64) []byte {
	if len(b.chunks) != 0 {
		last := b.chunks[len(b.chunks)-1]
		if b.w < len(last) {
			return last
		}
	}
	chunk := getDataBufferChunk(need)
	b.chunks = append(b.chunks, chunk)
	b.w = 0
	return chunk
}
