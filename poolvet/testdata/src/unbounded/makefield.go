package unbounded

import (
	"io"
	"sync"
)

// A pooled struct whose method re-makes its buffer at the size the caller
// asks for (kubernetes/kubernetes#141299's Allocator): put back without a
// bound, one huge request pins its buffer in the pool.
type sizedAllocator struct {
	buf []byte
}

func (a *sizedAllocator) allocate(n int) []byte {
	if cap(a.buf) >= n {
		a.buf = a.buf[:n]
		return a.buf
	}
	a.buf = make([]byte, n, 2*cap(a.buf)+n)
	return a.buf
}

var sizedAllocatorPool = sync.Pool{New: func() any { return new(sizedAllocator) }}

func encodeWith(w io.Writer, size int, fill func([]byte)) error {
	a := sizedAllocatorPool.Get().(*sizedAllocator)
	defer sizedAllocatorPool.Put(a) // want `a \(\*sizedAllocator\) is put into the pool without a capacity check, and its field buf grows without bound \(allocate makes it the size its caller asks for\)`
	b := a.allocate(size)
	fill(b)
	_, err := w.Write(b)
	return err
}

// The fix: drop allocators above a bound.
type boundedAllocator struct {
	buf []byte
}

func (a *boundedAllocator) allocate(n int) []byte {
	if cap(a.buf) >= n {
		a.buf = a.buf[:n]
		return a.buf
	}
	a.buf = make([]byte, n, 2*cap(a.buf)+n)
	return a.buf
}

const maxAllocatorCap = 1 << 20

var boundedAllocatorPool = sync.Pool{New: func() any { return new(boundedAllocator) }}

func putAllocator(a *boundedAllocator) {
	if cap(a.buf) > maxAllocatorCap {
		return
	}
	boundedAllocatorPool.Put(a)
}

func encodeBounded(w io.Writer, size int, fill func([]byte)) error {
	a := boundedAllocatorPool.Get().(*boundedAllocator)
	defer putAllocator(a)
	b := a.allocate(size)
	fill(b)
	_, err := w.Write(b)
	return err
}

// A table made at a size that does not depend on its own (an alphabet's
// length): not growth, not reported (domino14/macondo#180's fix).
type letterCounter struct {
	freq []uint8
}

func (l *letterCounter) init(letters int) {
	if cap(l.freq) < letters {
		l.freq = make([]uint8, letters)
	} else {
		l.freq = l.freq[:letters]
		clear(l.freq)
	}
}

var letterCounterPool = sync.Pool{New: func() any { return new(letterCounter) }}

func countLetters(word []byte, letters int) int {
	l := letterCounterPool.Get().(*letterCounter)
	defer letterCounterPool.Put(l)
	l.init(letters)
	n := 0
	for _, c := range word {
		if int(c) < letters {
			l.freq[c]++
			n++
		}
	}
	return n
}
