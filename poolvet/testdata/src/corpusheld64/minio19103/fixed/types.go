// Source: https://github.com/minio/minio/pull/19103
// (commit 92180bc793e60c9aa5c33e4e146e8485db45ec9f, "Add array recycling
// safety": "Nil entries when recycling arrays.")
//
// Bug: internal/grid's generic ArrayOf[T] keeps two sync.Pools, one for the
// backing arrays and one for the elements. putA, called from
// Array[T].Recycle, put every element back into the element pool and then
// put the array (resliced to length 0) into the array pool - without
// clearing its entries. The pooled backing array still pointed at every
// element, although those elements are now back in the element pool and
// get handed to (and mutated by) other users, and kept them reachable.
//
// Fix: putA sets v[i] = zero for every entry while returning the elements,
// before the array goes back to the array pool.
//
// Check: noreset (at p.aPool.Put(&v) in putA: the array goes back to the
// pool still holding pointers to the recycled elements)
package fixed

import (
	"encoding/binary"
	"errors"
	"math"
	"sync"
)

// RoundTripper provides an interface for types that can be serialized.
type RoundTripper interface {
	Msgsize() int
	MarshalMsg(b []byte) ([]byte, error)
}

// ArrayOf wraps an array of Messagepack compatible objects.
type ArrayOf[T RoundTripper] struct {
	aPool sync.Pool // Arrays
	ePool sync.Pool // Elements
}

// NewArrayOf returns a new ArrayOf.
// You must provide a function that returns a new instance of T.
func NewArrayOf[T RoundTripper](newFn func() T) *ArrayOf[T] {
	return &ArrayOf[T]{
		ePool: sync.Pool{New: func() any {
			return newFn()
		}},
	}
}

// New returns a new empty Array.
func (p *ArrayOf[T]) New() *Array[T] {
	return &Array[T]{
		p: p,
	}
}

// NewWith returns a new Array with the provided value (not copied).
func (p *ArrayOf[T]) NewWith(val []T) *Array[T] {
	return &Array[T]{
		p:   p,
		val: val,
	}
}

func (p *ArrayOf[T]) newA(sz uint32) []T {
	t, ok := p.aPool.Get().(*[]T)
	if !ok || t == nil {
		return make([]T, 0, sz)
	}
	t2 := *t
	return t2[:0]
}

func (p *ArrayOf[T]) putA(v []T) {
	var zero T // nil
	for i, t := range v {
		p.ePool.Put(t)
		v[i] = zero
	}
	if v != nil {
		v = v[:0]
		p.aPool.Put(&v)
	}
}

func (p *ArrayOf[T]) newE() T {
	return p.ePool.Get().(T)
}

// Array provides a wrapper for an underlying array of serializable objects.
type Array[T RoundTripper] struct {
	p   *ArrayOf[T]
	val []T
}

// Msgsize returns the size of the array in bytes.
func (j *Array[T]) Msgsize() int {
	if j.val == nil {
		return 1
	}
	sz := 5
	for _, v := range j.val {
		sz += v.Msgsize()
	}
	return sz
}

// Value returns the underlying value.
// Regular append mechanics should be observed.
// If no value has been set yet, a new array is created.
func (j *Array[T]) Value() []T {
	if j.val == nil {
		j.val = j.p.newA(10)
	}
	return j.val
}

// Append a value to the underlying array.
// The returned Array is always the same as the one called.
func (j *Array[T]) Append(v ...T) *Array[T] {
	if j.val == nil {
		j.val = j.p.newA(uint32(len(v)))
	}
	j.val = append(j.val, v...)
	return j
}

// AppendNew appends a new element taken from the element pool.
func (j *Array[T]) AppendNew() T {
	e := j.p.newE()
	j.Append(e)
	return e
}

// Set the underlying value.
func (j *Array[T]) Set(val []T) {
	j.val = val
}

// Recycle the underlying value.
func (j *Array[T]) Recycle() {
	if j.val != nil {
		j.p.putA(j.val)
		j.val = nil
	}
}

// MarshalMsg implements msgp.Marshaler
func (j *Array[T]) MarshalMsg(b []byte) (o []byte, err error) {
	if j.val == nil {
		return append(b, 0xc0), nil
	}
	if uint64(len(j.val)) > math.MaxUint32 {
		return b, errors.New("array: length of array exceeds math.MaxUint32")
	}
	b = binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(len(j.val)))
	for _, v := range j.val {
		b, err = v.MarshalMsg(b)
		if err != nil {
			return b, err
		}
	}
	return b, err
}
