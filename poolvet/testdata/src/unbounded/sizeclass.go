package unbounded

import "sync"

// Size-class pools: a Put that compares the buffer's capacity with the
// size of each class puts only buffers of a class's exact size (go-gost's
// bufpool); silent.
type scPool struct {
	size int
	pool sync.Pool
}

var scPools = []*scPool{newSCPool(512), newSCPool(4096), newSCPool(65536)}

func newSCPool(size int) *scPool {
	return &scPool{size: size, pool: sync.Pool{New: func() any { b := make([]byte, size); return &b }}}
}

func scPut(b *[]byte) {
	for i := range scPools {
		if cap(*b) == scPools[i].size {
			scPools[i].pool.Put(b)
			return
		}
	}
}

func scUse(n int) {
	b := scPools[0].pool.Get().(*[]byte)
	*b = append((*b)[:0], make([]byte, n)...)
	scPut(b)
}

// Equality with a size that is not a pool's class bounds nothing:
// reported.
type scConfig struct{ size int }

var scPool3 = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func scPut3(cfg *scConfig, b *[]byte) {
	if cap(*b) == cfg.size {
		return
	}
	scPool3.Put(b) // want `b \(\*\[\]byte\) is put into the pool without a capacity check`
}

func scUse3(cfg *scConfig, n int) {
	b := scPool3.Get().(*[]byte)
	*b = append((*b)[:0], make([]byte, n)...)
	scPut3(cfg, b)
}
