package noreset

import (
	"errors"
	"io"
	"sync"
)

// A decoder whose Reset(nil) fails while it still holds unread output.
type rfDecoder struct {
	r   io.Reader
	out []byte
}

func (d *rfDecoder) Reset(r io.Reader) error {
	if r == nil && len(d.out) > 0 {
		return errors.New("pending output")
	}
	d.r = r
	d.out = d.out[:0]
	return nil
}

type rfWrapper struct {
	*rfDecoder
	pool *sync.Pool
}

// The condition inverted: only wrappers whose cleanup failed go back
// (mostynb/zstdpool-syncpool 4c85d3e).
func (w *rfWrapper) Close() { // want Close:`pool:put\(0\)\+reset\?`
	err := w.rfDecoder.Reset(nil)
	if err != nil {
		w.pool.Put(w) // want `w goes back to the pool only when Reset \(line 32\) failed`
	}
}

type rfWrapper2 struct {
	*rfDecoder
	pool *sync.Pool
}

// The fix: back only when the cleanup worked; silent.
func (w *rfWrapper2) Close() { // want Close:`pool:put\(0\)\+reset\?`
	if err := w.rfDecoder.Reset(nil); err == nil {
		w.pool.Put(w)
	}
}

var rfPool = sync.Pool{New: func() any { return new(rfDecoder) }}

// A Reset onto new input that fails: the object goes back unused; silent.
func rfOpen(r io.Reader) (*rfDecoder, error) {
	d := rfPool.Get().(*rfDecoder)
	if err := d.Reset(r); err != nil {
		rfPool.Put(d)
		return nil, err
	}
	return d, nil
}
