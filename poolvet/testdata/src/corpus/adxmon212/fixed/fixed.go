// Package fixed is a fixed twin of Azure/adx-mon#212
// (https://github.com/Azure/adx-mon/pull/212): buffers are kept in size
// tiers, and one larger than the largest tier is dropped, so many small
// buffers no longer grow to the size of the rare large one.
package fixed

import (
	"bytes"
	"sync"
)

var tierSizes = [...]int{8 << 10, 64 << 10, 1 << 20}

type TieredPool struct {
	tiers [len(tierSizes)]sync.Pool
}

func tierOf(n int) int {
	for i, s := range tierSizes {
		if n <= s {
			return i
		}
	}
	return -1
}

func (p *TieredPool) Get(size int) *bytes.Buffer {
	if t := tierOf(size); t >= 0 {
		if b, ok := p.tiers[t].Get().(*bytes.Buffer); ok {
			b.Reset()
			return b
		}
		return bytes.NewBuffer(make([]byte, 0, tierSizes[t]))
	}
	return bytes.NewBuffer(make([]byte, 0, size))
}

func (p *TieredPool) Put(b *bytes.Buffer) {
	if b.Cap() > tierSizes[len(tierSizes)-1] {
		return
	}
	p.tiers[tierOf(b.Cap())].Put(b)
}

var pool TieredPool

func Encode(rows [][]byte, flush func([]byte) error) error {
	size := 0
	for _, r := range rows {
		size += len(r)
	}
	b := pool.Get(size)
	defer pool.Put(b)
	for _, r := range rows {
		b.Write(r)
	}
	return flush(b.Bytes())
}
