// Package bug is the fixed twin of hajimehoshi/ebiten#3418
// (https://github.com/hajimehoshi/ebiten/issues/3418, fix in commit
// ec24294d220b2845bc35b4e5d78e25a9336b1f57): Recycle first removes a sub-image
// from its parent's subImageCache (under the cache lock) and only then clears
// the struct and puts it back, so the parent can never hand out a pooled struct.
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

	// Forget the sub-image in its parent's cache before it goes back.
	if i.isSubImage() {
		i.original.subImageCacheM.Lock()
		delete(i.original.subImageCache, i.bounds)
		i.original.subImageCacheM.Unlock()
	}

	// Clear all fields to release references and reset state.
	i.image = nil
	i.original = nil
	i.bounds = image.Rectangle{}
	i.tmpVertices = i.tmpVertices[:0]
	i.tmpIndices = i.tmpIndices[:0]
	clear(i.subImageCache)
	i.subImageGCLastTick = 0
	i.atime.Store(0)

	theImagePool.Put(i)
}

// DrawTiles shows how callers churn through sub-images of one atlas.
func DrawTiles(atlas *Image, tiles []image.Rectangle, draw func(*Image)) {
	for _, r := range tiles {
		sub := atlas.SubImage(r)
		draw(sub)
		sub.Recycle()
	}
}
