// Package bug reproduces the shape of hajimehoshi/ebiten#3418
// (https://github.com/hajimehoshi/ebiten/issues/3418, first attempt in commit
// 0e8009bd9bcaebe2b7c28b8d26c96ad91879f8ae, reverted in c906d02e2, relanded with
// the fix in ec24294d220b2845bc35b4e5d78e25a9336b1f57): Image structs were drawn
// from a global sync.Pool by both NewImage and SubImage, and Image.Recycle
// cleared the struct and put it back. SubImage also remembers every sub-image it
// hands out in the parent's subImageCache, keyed by bounds. Recycle did not take
// the sub-image out of that cache, so the pooled struct stayed reachable from
// the parent: the next SubImage with the same bounds returned the recycled
// struct (while the pool could hand it to NewImage as well), and recycling it
// again put the same struct into the pool a second time.
//
// Check: doubleput (the Put in Recycle puts back a sub-image that the parent's
// cache still references and will hand out and have recycled again).
package bug

import (
	"image"
	"sync"
	"sync/atomic"
)

type backing struct {
	pixels []byte
}

type Image struct {
	image    *backing
	bounds   image.Rectangle
	original *Image
	addr     *Image

	subImageCache      map[image.Rectangle]*Image
	subImageCacheM     sync.Mutex
	subImageGCLastTick int64
	atime              atomic.Int64

	tmpVertices []float32
	tmpIndices  []uint32
}

var theImagePool = sync.Pool{
	New: func() any { return &Image{} },
}

var tick atomic.Int64

func (i *Image) isSubImage() bool { return i.original != nil }

func (i *Image) updateAccessTime() { i.atime.Store(tick.Load()) }

func NewImage(w, h int) *Image {
	i := theImagePool.Get().(*Image)
	i.image = &backing{pixels: make([]byte, 4*w*h)}
	i.bounds = image.Rect(0, 0, w, h)
	i.addr = i
	return i
}

func (i *Image) SubImage(r image.Rectangle) *Image {
	if i.isSubImage() {
		return i.original.SubImage(r.Intersect(i.bounds))
	}
	r = r.Intersect(i.bounds)
	if r.Empty() {
		r = image.Rectangle{}
	}

	i.subImageCacheM.Lock()
	defer i.subImageCacheM.Unlock()

	if img, ok := i.subImageCache[r]; ok {
		img.updateAccessTime()
		return img
	}

	if now := tick.Load(); i.subImageGCLastTick < now {
		i.subImageGCLastTick = now
		for _, img := range i.subImageCache {
			if img.atime.Load()+60 < now {
				delete(i.subImageCache, img.bounds)
			}
		}
	}

	img := theImagePool.Get().(*Image)
	img.image = i.image
	img.bounds = r
	img.original = i
	img.addr = img

	if i.subImageCache == nil {
		i.subImageCache = map[image.Rectangle]*Image{}
	}
	i.subImageCache[r] = img
	img.updateAccessTime()
	return img
}

func (i *Image) Deallocate() {
	if i.isSubImage() {
		return
	}
	i.image = nil
}

// Recycle puts the Image struct back into the global pool. The image must not
// be used afterwards.
func (i *Image) Recycle() {
	if i.addr != i {
		panic("illegal use of an Image copied by value")
	}
	i.Deallocate()

	// Clear all fields to release references and reset state.
	i.image = nil
	i.original = nil
	i.bounds = image.Rectangle{}
	i.tmpVertices = i.tmpVertices[:0]
	i.tmpIndices = i.tmpIndices[:0]
	clear(i.subImageCache)
	i.subImageGCLastTick = 0
	i.atime.Store(0)

	theImagePool.Put(i) // want `doubleput`
}

// DrawTiles shows how callers churn through sub-images of one atlas.
func DrawTiles(atlas *Image, tiles []image.Rectangle, draw func(*Image)) {
	for _, r := range tiles {
		sub := atlas.SubImage(r)
		draw(sub)
		sub.Recycle()
	}
}
