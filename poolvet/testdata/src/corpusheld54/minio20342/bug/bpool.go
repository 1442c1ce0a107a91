// Source: https://github.com/minio/minio/pull/20342
// (commit 504e52b45e8350d0b64ae52f4b4307fd5d6b23d1, "protect bpool from
// buffer pollution by invalid buffers").
//
// Bug: internal/bpool.BytePoolCap is a leaky pool of []byte kept in a
// bounded channel; every buffer it hands out has length w and capacity wcap.
// Its Put accepted whatever slice it was given and pushed it into the channel
// as is, so buffers that were not made by the pool, or whose capacity
// differed from wcap (a caller's own larger or smaller buffer, a re-sliced
// buffer), were kept and later handed out by Get as if they were pool
// buffers. newParallelReader also Put back a buffer it judged too small.
//
// Fix: Put drops any buffer whose capacity is not exactly wcap and stores it
// re-sliced to the pool's width (b[:bp.w]); newParallelReader checks
// WidthCap() before taking a buffer instead of taking one and putting it
// back.
//
// Check: unbounded (at the channel send in BytePoolCap.Put, which keeps a
// buffer of any size with no capacity guard)
package bug

// allocAligned stands in for reedsolomon.AllocAligned.
func allocAligned(shards, each int) [][]byte {
	res := make([][]byte, shards)
	for i := range res {
		res[i] = make([]byte, each)
	}
	return res
}

// BytePoolCap implements a leaky pool of []byte in the form of a bounded channel.
type BytePoolCap struct {
	c    chan []byte
	w    int
	wcap int
}

// NewBytePoolCap creates a new BytePool bounded to the given maxSize, with new
// byte arrays sized based on width.
func NewBytePoolCap(maxSize uint64, width int, capwidth int) (bp *BytePoolCap) {
	if capwidth > 0 && capwidth < 64 {
		panic("buffer capped with smaller than 64 bytes is not supported")
	}
	if capwidth > 0 && width > capwidth {
		panic("buffer length cannot be > capacity of the buffer")
	}
	return &BytePoolCap{
		c:    make(chan []byte, maxSize),
		w:    width,
		wcap: capwidth,
	}
}

// Populate - populates and pre-warms the byte pool, this function is non-blocking.
func (bp *BytePoolCap) Populate() {
	for _, buf := range allocAligned(cap(bp.c), bp.wcap) {
		bp.Put(buf[:bp.w])
	}
}

// Get gets a []byte from the BytePool, or creates a new one if none are
// available in the pool.
func (bp *BytePoolCap) Get() (b []byte) {
	if bp == nil {
		return nil
	}
	select {
	case b = <-bp.c:
		// reuse existing buffer
	default:
		// create new aligned buffer
		if bp.wcap > 0 {
			b = allocAligned(1, bp.wcap)[0][:bp.w]
		} else {
			b = allocAligned(1, bp.w)[0]
		}
	}
	return
}

// Put returns the given Buffer to the BytePool.
func (bp *BytePoolCap) Put(b []byte) {
	if bp == nil {
		return
	}
	select {
	case bp.c <- b: // want `unbounded`
		// buffer went back into pool
	default:
		// buffer didn't go back into pool, just discard
	}
}

// Width returns the width of the byte arrays in this pool.
func (bp *BytePoolCap) Width() (n int) {
	if bp == nil {
		return 0
	}
	return bp.w
}

// WidthCap returns the cap width of the byte arrays in this pool.
func (bp *BytePoolCap) WidthCap() (n int) {
	if bp == nil {
		return 0
	}
	return bp.wcap
}
