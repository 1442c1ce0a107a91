package noreset

import (
	"bytes"
	"sync"
)

// Elements cleared by a method of the slice type before the truncation
// (segmentio/kafka-go's contiguousPages.clear): not reported.
type pageList []*bytes.Buffer

func (ps pageList) clear() {
	for i := range ps {
		ps[i] = nil
	}
}

type pagedBuffer struct {
	pages pageList
	size  int
}

var pagedBufferPool = sync.Pool{New: func() any { return new(pagedBuffer) }}

func (pb *pagedBuffer) release() {
	func() {
		pb.pages.clear()
		pb.pages = pb.pages[:0]
		pb.size = 0
		pagedBufferPool.Put(pb)
	}()
}

func usePaged(bufs []*bytes.Buffer) int {
	pb := pagedBufferPool.Get().(*pagedBuffer)
	pb.pages = append(pb.pages, bufs...)
	n := len(pb.pages)
	pb.release()
	return n
}

// Without the clear, the same truncation is reported.
func (pb *pagedBuffer) releaseDirty() {
	pb.pages = pb.pages[:0]
	pb.size = 0
	pagedBufferPool.Put(pb) // want `pb goes back to the pool with pages truncated but its elements not cleared`
}
