// Source: https://github.com/hajimehoshi/ebiten/commit/2534f1e3964a0c69f47b35de3a7ee989f3265dbf
// ("text/v2: use the managed bytes instead of image.NewRGBA for memory
// efficiency"), reverted by
// https://github.com/hajimehoshi/ebiten/commit/1b60b342c218af3c4d1330c7d15168bb863d84e5
// ("Reason: this was not so efficient. Also, the usage seems not correct.
// Maybe sync.Pool would be better"). The pooled replacement that followed
// (e144fc3fc, text/v2/rgbapool.go) documents the missing guarantee: "The
// Pix buffer is guaranteed to be zero-filled."
//
// Bug: glyph images were rendered into pixel memory taken from
// internal/graphics' byte-slice pool (NewManagedBytes), whose slices are
// explicitly "not zero-cleared at the constructor": they hold the pixels of
// whatever image last released them. segmentsToImage overwrote every pixel
// (its rasterizer uses draw.Src), but GoXFace.glyphImageImpl drew the glyph
// with font.Drawer, which composites with draw.Over only inside the glyph
// mask, so every other pixel of the glyph image kept the previous user's
// bytes.
// Fix: the change was reverted; glyph images are drawn into a fresh, zeroed
// image.NewRGBA again.
//
// x/image/vector, x/image/font and ebiten.Image are replaced by small stdlib
// stand-ins with the same compositing behaviour.
//
// Check: noreset (at the NewManagedBytes call in glyphImageImpl: the pooled
// slice comes out of the pool holding the last user's pixels and is
// composited onto with draw.Over instead of being cleared)
package bug

import (
	"runtime"
	"sync"
)

// ManagedBytes is a managed byte slice.
// The internal byte alice are managed in a pool.
type ManagedBytes struct {
	bytes   []byte
	pool    *bytesPool
	cleanup runtime.Cleanup
}

// Len returns the length of the slice.
func (m *ManagedBytes) Len() int {
	return len(m.bytes)
}

// Read reads the byte slice's content to dst.
func (m *ManagedBytes) Read(dst []byte, from, to int) {
	copy(dst, m.bytes[from:to])
}

// Release releases the underlying byte slice.
//
// After Release is called, the underlying byte slice is no longer available.
func (m *ManagedBytes) Release() {
	m.pool.put(m.bytes)
	m.bytes = nil
	m.cleanup.Stop()
}

// NewManagedBytes returns a managed byte slice initialized by the given constructor f.
//
// The byte slice is not zero-cleared at the constructor.
func NewManagedBytes(size int, f func([]byte)) *ManagedBytes {
	bs := theBytesPool.get(size)
	f(bs.bytes)
	return bs
}

type bytesPool struct {
	pool [][]byte

	m sync.Mutex
}

var theBytesPool bytesPool

func (b *bytesPool) get(size int) *ManagedBytes {
	bs := b.getFromCache(size)
	if bs == nil {
		bs = make([]byte, size)
	}
	m := &ManagedBytes{
		bytes: bs,
		pool:  b,
	}
	m.cleanup = runtime.AddCleanup(m, func(bytes []byte) {
		b.put(bytes)
	}, m.bytes)
	return m
}

func (b *bytesPool) getFromCache(size int) []byte {
	b.m.Lock()
	defer b.m.Unlock()

	for i, bs := range b.pool {
		if cap(bs) < size {
			continue
		}

		copy(b.pool[i:], b.pool[i+1:])
		b.pool[len(b.pool)-1] = nil
		b.pool = b.pool[:len(b.pool)-1]
		return bs[:size]
	}

	return nil
}

func (b *bytesPool) put(bs []byte) {
	if len(bs) == 0 {
		return
	}

	b.m.Lock()
	defer b.m.Unlock()

	b.pool = append(b.pool, bs)

	// GC the pool. The size limitation is arbitrary.
	for len(b.pool) >= 32 || b.totalSize() >= 1024*1024*1024 {
		b.pool = b.pool[1:]
	}
}

func (b *bytesPool) totalSize() int {
	var s int
	for _, bs := range b.pool {
		s += len(bs)
	}
	return s
}
