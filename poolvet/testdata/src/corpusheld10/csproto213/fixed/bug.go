// Package fixed is CrowdStrike/csproto#213 after the fix: close resets
// skipClose to false before the result goes back to the pool.
package fixed

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
	r.skipClose = false
	r.dec.pool.Put(r)
}
