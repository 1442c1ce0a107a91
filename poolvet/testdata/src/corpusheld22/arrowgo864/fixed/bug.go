// Package bug reproduces the fix of apache/arrow-go#864
// (https://github.com/apache/arrow-go/pull/864, commit 7f408d00): recycle
// resets the bloom filter buffer with ResizeNoShrink(0) before returning it
// to the pool, like every other pool-return path.
// Check: noreset (fixed twin: no report expected).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"sync"
)

// maxPooledBufferSize keeps an outsized filter from pinning memory in the pool.
const maxPooledBufferSize = 1 << 20

// Buffer mirrors arrow's memory.Buffer: a byte slice with a logical length.
type Buffer struct {
	buf    []byte
	length int
}

func (b *Buffer) Bytes() []byte { return b.buf[:b.length] }

func (b *Buffer) Len() int { return b.length }

func (b *Buffer) Cap() int { return cap(b.buf) }

// ResizeNoShrink changes the length, growing the backing slice if needed but
// never shrinking it.
func (b *Buffer) ResizeNoShrink(n int) {
	if n > cap(b.buf) {
		nb := make([]byte, n)
		copy(nb, b.buf[:b.length])
		b.buf = nb
	}
	b.buf = b.buf[:cap(b.buf)]
	b.length = n
}

func (b *Buffer) Release() { b.buf, b.length = nil, 0 }

type BloomFilter interface {
	CheckHash(h uint64) bool
}

type blockSplitBloomFilter struct {
	data     *Buffer
	bitset32 []uint32

	cancelCleanup func()
}

func (b *blockSplitBloomFilter) CheckHash(h uint64) bool {
	if len(b.bitset32) == 0 {
		return false
	}
	i := h % uint64(len(b.bitset32)*32)
	return b.bitset32[i/32]&(1<<(i%32)) != 0
}

func addCleanup(bf *blockSplitBloomFilter, bufferPool *sync.Pool) {
	c := runtime.AddCleanup(bf, func(data *Buffer) {
		if bufferPool != nil && data.Cap() <= maxPooledBufferSize {
			data.ResizeNoShrink(0)
			bufferPool.Put(data)
		} else {
			data.Release()
		}
	}, bf.data)
	bf.cancelCleanup = c.Stop
}

type RowGroupBloomFilterReader struct {
	input   io.ReaderAt
	offsets []int64
	lengths []int32

	bufferPool *sync.Pool
}

func (r *RowGroupBloomFilterReader) GetColumnBloomFilter(i int) (BloomFilter, error) {
	if i < 0 || i >= len(r.offsets) {
		return nil, errors.New("column index out of range")
	}
	sectionRdr := io.NewSectionReader(r.input, r.offsets[i], int64(r.lengths[i]))

	buf := r.bufferPool.Get().(*Buffer)
	buf.ResizeNoShrink(int(r.lengths[i]))
	if _, err := io.ReadFull(sectionRdr, buf.Bytes()); err != nil {
		if buf.Cap() <= maxPooledBufferSize {
			buf.ResizeNoShrink(0)
			r.bufferPool.Put(buf)
		}
		return nil, err
	}

	bitset := buf.Bytes()
	words := make([]uint32, len(bitset)/4)
	for j := range words {
		words[j] = binary.LittleEndian.Uint32(bitset[j*4:])
	}
	bf := &blockSplitBloomFilter{
		data:     buf,
		bitset32: words,
	}
	addCleanup(bf, r.bufferPool)
	return bf, nil
}

// VisitColumnBloomFilter invokes fn for the BloomFilter of the column at index i.
// The BloomFilter passed to fn is recycled immediately after fn returns.
func (r *RowGroupBloomFilterReader) VisitColumnBloomFilter(i int, fn func(BloomFilter) error) error {
	bf, err := r.GetColumnBloomFilter(i)
	if err != nil || bf == nil {
		return err
	}

	defer r.recycle(bf)

	return fn(bf)
}

func (r *RowGroupBloomFilterReader) recycle(bf BloomFilter) {
	if bf == nil {
		return
	}

	b, ok := bf.(*blockSplitBloomFilter)
	if !ok {
		return
	}

	b.bitset32 = nil

	if r.bufferPool != nil && b.cancelCleanup != nil && b.data.Cap() <= maxPooledBufferSize {
		// Stop the GC cleanup so it can't return b.data to the pool a second time.
		b.cancelCleanup()
		b.cancelCleanup = nil
		b.data.ResizeNoShrink(0)
		r.bufferPool.Put(b.data)
	} else if b.data != nil {
		if b.cancelCleanup != nil {
			b.cancelCleanup()
			b.cancelCleanup = nil
		}
		b.data.Release()
	}

	b.data = nil
}

func NewReader(input io.ReaderAt, offsets []int64, lengths []int32) *RowGroupBloomFilterReader {
	return &RowGroupBloomFilterReader{
		input:   input,
		offsets: offsets,
		lengths: lengths,
		bufferPool: &sync.Pool{New: func() any {
			return &Buffer{}
		}},
	}
}
