// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/commit/c14dafce43be1f8811323a13186be3d7b5a1ab70
// ("lib/promscrape: an attempt to reduce memory usage when vmagent scrapes
// targets with varying number of metrics": "Do not cache too big byte buffers
// and too big writeRequestCtx objects, since it is cheaper to re-create them
// instead of wasting RAM for their caching").
//
// Bug: leveledbytebufferpool.Put computes the pool id from cap(bb.B), but
// getPoolIDAndCapacity clamps the id to the last pool, and Put ignores the
// returned pool capacity, so a scrape body buffer of any size (it grows to the
// biggest scrape response of the target) is put into the last pool and kept
// there. vmagent scraping a few big targets keeps huge body buffers pooled.
//
// Fix: Put only pools bb when capacity <= poolCapacity (and the number of
// pools is limited so the maximum pooled capacity is small); the clamp in
// getPoolIDAndCapacity is also fixed to id >= len(pools).
//
// Check: unbounded (pools[id].Put(bb) puts back a buffer whose capacity is
// not limited by the pool's capacity)
package fixed

import (
	"math/bits"
	"sync"
)

// ---- lib/bytesutil ----

// ByteBuffer implements a simple byte buffer.
type ByteBuffer struct {
	B []byte
}

// Reset resets bb.
func (bb *ByteBuffer) Reset() {
	bb.B = bb.B[:0]
}

// ---- lib/leveledbytebufferpool ----

// pools contains pools for byte slices of various capacities.
//
//	pools[0] is for capacities from 0 to 8
//	pools[1] is for capacities from 9 to 16
//	pools[2] is for capacities from 17 to 32
//	...
//	pools[n] is for capacities from 2^(n+2)+1 to 2^(n+3)
//
// Limit the maximum capacity to 2^18, since there are no performance benefits
// in caching byte slices with bigger capacities.
var pools [17]sync.Pool

// Get returns byte buffer with the given capacity.
func Get(capacity int) *ByteBuffer {
	id, capacityNeeded := getPoolIDAndCapacity(capacity)
	for i := 0; i < 2; i++ {
		if id < 0 || id >= len(pools) {
			break
		}
		if v := pools[id].Get(); v != nil {
			return v.(*ByteBuffer)
		}
		id++
	}
	return &ByteBuffer{
		B: make([]byte, 0, capacityNeeded),
	}
}

// Put returns bb to the pool.
func Put(bb *ByteBuffer) {
	capacity := cap(bb.B)
	id, poolCapacity := getPoolIDAndCapacity(capacity)
	if capacity <= poolCapacity {
		bb.Reset()
		pools[id].Put(bb)
	}
}

func getPoolIDAndCapacity(size int) (int, int) {
	size--
	if size < 0 {
		size = 0
	}
	size >>= 3
	id := bits.Len(uint(size))
	if id >= len(pools) {
		id = len(pools) - 1
	}
	return id, (1 << (id + 3))
}

// ---- lib/promscrape ----

type scrapeWork struct {
	ReadData func(dst []byte) ([]byte, error)

	// prevBodyLen contains the previous response body length for the given scrape work.
	// It is used as a hint in order to reduce memory usage for body buffers.
	prevBodyLen int

	processBody func(body []byte)
}

func (sw *scrapeWork) scrapeInternal() error {
	body := Get(sw.prevBodyLen)
	var err error
	body.B, err = sw.ReadData(body.B[:0])
	if err == nil {
		sw.processBody(body.B)
	}
	sw.prevBodyLen = len(body.B)
	Put(body)
	return err
}
