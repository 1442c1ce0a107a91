// Package bug reproduces the shape of CrowdStrike/csproto#213
// (https://github.com/CrowdStrike/csproto/pull/213): lazyproto recycles
// DecodeResult objects through a sync.Pool. A nested result is taken
// from the nested decoder's pool, marked skipClose=true so callers cannot
// free it twice, and put back when its parent closes, still marked. The
// next user that gets it and fails to decode calls Close, which sees the
// stale skipClose and returns without recycling: the pool slowly drains.
//
// Check: noreset (stale field: skipClose is read by Close before anything
// writes it after Get, and the Put leaves it set).
package bug

import (
	"errors"
	"sync"
)

type Decoder struct {
	pool   sync.Pool
	nested map[int]*Decoder
}

type DecodeResult struct {
	dec       *Decoder
	data      []byte
	children  []*DecodeResult
	skipClose bool
}

func NewDecoder() *Decoder {
	d := &Decoder{nested: map[int]*Decoder{}}
	d.pool.New = func() any { return &DecodeResult{dec: d} }
	return d
}

var errTruncated = errors.New("truncated message")

// Decode takes a result from the pool and decodes into it; on failure the
// result is released through the exported Close.
func (d *Decoder) Decode(msg []byte) (*DecodeResult, error) {
	res := d.pool.Get().(*DecodeResult)
	if err := res.decode(msg); err != nil {
		_ = res.Close()
		return nil, err
	}
	return res, nil
}

func (r *DecodeResult) decode(msg []byte) error {
	if len(msg) == 0 {
		return errTruncated
	}
	r.data = msg
	// every byte with the top bit set opens a nested message
	for i, b := range msg {
		if b&0x80 == 0 {
			continue
		}
		nd := r.dec.nested[i]
		if nd == nil {
			nd = NewDecoder()
			r.dec.nested[i] = nd
		}
		child := nd.pool.Get().(*DecodeResult)
		if err := child.decode(msg[i+1:]); err != nil {
			child.close()
			return err
		}
		child.skipClose = true
		r.children = append(r.children, child)
	}
	return nil
}

// Close releases the result; nested results are owned by their parent.
func (r *DecodeResult) Close() error {
	if r.skipClose {
		return nil
	}
	r.close()
	return nil
}

func (r *DecodeResult) close() {
	for _, c := range r.children {
		c.close()
	}
	clear(r.children)
	r.children = r.children[:0]
	r.data = nil
	r.dec.pool.Put(r) // want `noreset`
}
