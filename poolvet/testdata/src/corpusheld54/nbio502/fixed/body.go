// Source: https://github.com/lesismal/nbio/pull/502
// (branch notix/fix-buffer-reuse-nbhttp, commit 00a897c31f62d3810a7299131c330d8e72b9dae9
// "updated body read").
//
// Bug: nbhttp.BodyReader keeps the HTTP body in buffers taken from the
// engine's BodyAllocator (a sync.Pool backed mempool). Close returned every
// buffer to the allocator with Free but left br.buffers, br.left and
// br.index as they were, so the reader still referenced memory that was back
// in the pool. Close can run while a handler (e.g. a json.Decoder) is still
// reading; that Read then copied from, and Freed again, buffers that another
// request may already have taken from the pool, or panicked on buffers[0].
//
// Fix: after freeing, Close clears buffers/left/index; Read returns io.EOF
// once the reader is closed and copes with an empty buffer list;
// NewBodyReader resets every field of the reader it takes from
// bodyReaderPool.
//
// Check: useafterput (at the Free in Close: the freed buffers stay
// referenced by br.buffers and are read, and freed again, by a later Read)
package fixed

import (
	"errors"
	"io"
	"sync"
)

var ErrTooLong = errors.New("body too long")

var (
	emptyBodyReader = BodyReader{}
	bodyReaderPool  = sync.Pool{
		New: func() interface{} {
			return &BodyReader{}
		},
	}
)

// BodyReader implements io.ReadCloser and is to be used as HTTP body.
type BodyReader struct {
	index   int       // first buffer read index
	left    int       // num of byte left
	buffers []*[]byte // buffers that storage HTTP body
	engine  *Engine   // allocator that manages buffers
	closed  bool
}

// Read reads body bytes to p, returns the num of bytes read and error.
func (br *BodyReader) Read(p []byte) (int, error) {
	// Close() may run while a handler (e.g. json.Decoder) is still reading.
	if br.closed {
		return 0, io.EOF
	}
	need := len(p)
	if br.left <= 0 {
		return 0, io.EOF
	}
	ncopy := 0
	for ncopy < need && br.left > 0 {
		if len(br.buffers) == 0 {
			// left tracks bytes not yet copied out; buffers holds the backing
			// slices. When they diverge (pool reuse, Close during Read, or
			// zero-length head buffers), indexing buffers[0] panics.
			br.left = 0
			if ncopy > 0 {
				return ncopy, nil
			}
			return 0, io.EOF
		}
		pbuf := br.buffers[0]
		if br.index >= len(*pbuf) {
			// Drop exhausted head buffers without decrementing left; those
			// bytes were already accounted for when the buffer was consumed.
			br.engine.BodyAllocator.Free(pbuf)
			br.buffers[0] = nil
			br.buffers = br.buffers[1:]
			br.index = 0
			continue
		}
		nc := copy(p[ncopy:], (*pbuf)[br.index:])
		if nc+br.index >= len(*pbuf) {
			br.engine.BodyAllocator.Free(pbuf)
			br.buffers[0] = nil
			br.buffers = br.buffers[1:]
			br.index = 0
		} else {
			br.index += nc
		}
		ncopy += nc
		br.left -= nc
	}
	return ncopy, nil
}

// Close frees buffers and resets itself to empty value.
func (br *BodyReader) Close() error {
	if br.closed {
		return nil
	}
	br.closed = true
	if br.buffers != nil {
		for _, b := range br.buffers {
			br.engine.BodyAllocator.Free(b)
		}
	}
	// Previously only freed backing memory; left/index/buffers were left
	// stale, so a concurrent or subsequent Read could panic on buffers[0].
	br.buffers = nil
	br.left = 0
	br.index = 0
	// *br = emptyBodyReader
	// bodyReaderPool.Put(br)
	return nil
}

// append appends data to buffers.
func (br *BodyReader) append(data []byte) error {
	if len(data) == 0 {
		return nil
	}

	if br.engine.MaxHTTPBodySize > 0 && len(data)+br.left > br.engine.MaxHTTPBodySize {
		return ErrTooLong
	}

	br.left += (len(data))
	if len(br.buffers) == 0 {
		pbuf := br.engine.BodyAllocator.Malloc(len(data))
		copy(*pbuf, data)
		br.buffers = append(br.buffers, pbuf)
	} else {
		i := len(br.buffers) - 1
		pbuf := br.buffers[i]
		l := len(*pbuf)
		bLeft := cap(*pbuf) - len(*pbuf)
		if bLeft > 0 {
			if bLeft > len(data) {
				*pbuf = (*pbuf)[:l+len(data)]
			} else {
				*pbuf = (*pbuf)[:cap(*pbuf)]
			}
			nc := copy((*pbuf)[l:], data)
			data = data[nc:]
			br.buffers[i] = pbuf
		}
		if len(data) > 0 {
			pbuf = br.engine.BodyAllocator.Malloc(len(data))
			copy(*pbuf, data)
			br.buffers = append(br.buffers, pbuf)
		}
	}
	return nil
}

// NewBodyReader creates a BodyReader.
func NewBodyReader(engine *Engine) *BodyReader {
	br := bodyReaderPool.Get().(*BodyReader)
	// Reset all fields on pool Get so stale left/buffers
	// from a previous request don't leak through.
	br.index = 0
	br.left = 0
	br.buffers = nil
	br.closed = false
	br.engine = engine
	return br
}

// releaseBody is the part of releaseRequest that recycles the body.
func releaseBody(br *BodyReader, retainHTTPBody bool) {
	if retainHTTPBody {
		// do not release the body
		return
	}
	_ = br.Close()
	*br = emptyBodyReader
	bodyReaderPool.Put(br)
}
