package unbounded

import "sync"

// Two Puts of one pooled decoder: one drops its scratch slice above a
// bound, the other puts it back as it is (alex60217101990/qdf#52).

type scratchDec struct {
	data    []byte
	scratch []int64
}

var scratchDecPool = sync.Pool{New: func() any { return new(scratchDec) }}

const maxScratch = 1 << 16

func (d *scratchDec) scratchOf(n int) []int64 {
	if cap(d.scratch) < n {
		d.scratch = make([]int64, n)
	}
	return d.scratch[:n]
}

func decodeScratch(data []byte, n int) int64 {
	d := scratchDecPool.Get().(*scratchDec)
	d.data = data
	var sum int64
	for _, v := range d.scratchOf(n) {
		sum += v
	}
	d.data = nil
	if cap(d.scratch) > maxScratch {
		d.scratch = nil
	}
	scratchDecPool.Put(d)
	return sum
}

func decodeScratchQuick(data []byte, n int) int {
	d := scratchDecPool.Get().(*scratchDec)
	d.data = data
	m := len(d.scratchOf(n))
	d.data = nil
	scratchDecPool.Put(d) // want `unbounded`
	return m
}

func decodeScratchDropped(data []byte, n int) int {
	d := scratchDecPool.Get().(*scratchDec)
	d.data = data
	m := len(d.scratchOf(n))
	d.data, d.scratch = nil, nil
	scratchDecPool.Put(d)
	return m
}

func decodeScratchBounded(data []byte, n int) int {
	d := scratchDecPool.Get().(*scratchDec)
	d.data = data
	m := len(d.scratchOf(n))
	d.data = nil
	if cap(d.scratch) <= maxScratch {
		scratchDecPool.Put(d)
	}
	return m
}
