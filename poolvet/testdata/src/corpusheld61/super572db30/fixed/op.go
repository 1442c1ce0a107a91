// Source: https://github.com/brimdata/super/pull/6742
// (commit 572db306a449248b3b909e73a5911d2819efb989, "sam: fix buffer reuse
// bug in infer operator").
//
// Bug: the infer operator's converter queues values whose type it has not
// inferred yet (converter.enq appends them to c.queues, a map kept across
// batches). The values are not copied: their bytes live in the buffer of the
// sbuf pullerBatch they came from. converter.process then calls
// batch.Unref(), which puts the batch back into pullerBatchPool (a sync.Pool)
// when its count reaches zero, and the next Pull overwrites the buffer while
// the queued values still point into it ("accumulates super.Values that may
// belong to an sbuf.Batch without copying them, which is a bug since batches
// can be reused"; panics and wrong output in CI).
//
// Fix: enq appends val.Copy() instead of val.
//
// Check: useafterput (batch.Unref() in converter.process puts the batch into
// the pool while values sharing its buffer are kept in c.queues)
package fixed

import (
	"sync"
	"sync/atomic"
)

type Type struct {
	ID         int
	HasStrings bool
}

type Value struct {
	typ   *Type
	bytes []byte
}

func NewValue(typ *Type, b []byte) Value { return Value{typ, b} }

func (v Value) Type() *Type   { return v.typ }
func (v Value) Bytes() []byte { return v.bytes }

func (v Value) Copy() Value {
	return Value{v.typ, append([]byte(nil), v.bytes...)}
}

type Batch interface {
	Ref()
	Unref()
	Values() []Value
}

type Puller interface {
	Pull(bool) (Batch, error)
}

type pullerBatch struct {
	buf  []byte
	refs atomic.Int32
	vals []Value
}

var pullerBatchPool sync.Pool

func newPullerBatch() *pullerBatch {
	b, ok := pullerBatchPool.Get().(*pullerBatch)
	if !ok {
		b = &pullerBatch{
			buf:  make([]byte, 512*1024),
			vals: make([]Value, 100),
		}
	}
	b.buf = b.buf[:0]
	b.refs.Store(1)
	b.vals = b.vals[:0]
	return b
}

func (b *pullerBatch) Ref() { b.refs.Add(1) }

func (b *pullerBatch) Unref() {
	if refs := b.refs.Add(-1); refs == 0 {
		pullerBatchPool.Put(b)
	} else if refs < 0 {
		panic("sbuf: negative batch reference count")
	}
}

func (b *pullerBatch) Values() []Value { return b.vals }

// Array is a slice of values that implements Batch.
type Array struct {
	values []Value
}

func (a *Array) Ref()            {}
func (a *Array) Unref()          {}
func (a *Array) Values() []Value { return a.values }
func (a *Array) Append(r Value)  { a.values = append(a.values, r) }

type inferer struct {
	n int
}

func newInferer(typ *Type) *inferer {
	if !typ.HasStrings {
		return nil
	}
	return &inferer{}
}

func (i *inferer) load(typ *Type, b []byte) { i.n += len(b) }

func (i *inferer) typeof(typ *Type) *Type {
	return &Type{ID: typ.ID + 1000}
}

type converter struct {
	queues map[*Type][]Value
	target map[*Type]*Type
	limit  int
}

func newConverter(limit int) *converter {
	return &converter{
		queues: make(map[*Type][]Value),
		target: make(map[*Type]*Type),
		limit:  limit,
	}
}

func (c *converter) process(batch Batch) (Batch, error) {
	var out Array
	for _, val := range batch.Values() {
		if val, ok := c.convert(val); ok {
			out.Append(val)
		}
	}
	batch.Unref()
	if err := c.drain(&out, false); err != nil {
		return nil, err
	}
	if len(out.Values()) != 0 {
		return &out, nil
	}
	return nil, nil
}

func (c *converter) drain(out *Array, force bool) error {
	for typ, q := range c.queues {
		if force || (c.limit != 0 && len(q) >= c.limit) {
			c.infer(q)
			delete(c.queues, typ)
			for _, val := range q {
				val, ok := c.convert(val)
				if !ok {
					panic(c)
				}
				out.Append(val)
			}
		}
	}
	return nil
}

func (c *converter) convert(val Value) (Value, bool) {
	if to, ok := c.target[val.Type()]; ok {
		if to != nil {
			return NewValue(to, val.Bytes()), true
		}
		return val, true
	}
	if c.enq(val) {
		return val, true
	}
	return Value{}, false
}

func (c *converter) finish() (Batch, error) {
	var out Array
	if err := c.drain(&out, true); err != nil {
		return nil, err
	}
	if len(out.Values()) != 0 {
		return &out, nil
	}
	return nil, nil
}

func (c *converter) enq(val Value) bool {
	typ := val.Type()
	q, ok := c.queues[typ]
	if !ok {
		if newInferer(typ) == nil {
			// No string fields... skip
			c.target[typ] = nil
			return true
		}
		c.queues[typ] = make([]Value, 0, c.limit)
	}
	c.queues[typ] = append(q, val.Copy())
	return false
}

func (c *converter) infer(q []Value) {
	typ := q[0].Type()
	infer := newInferer(typ)
	vals := q
	if c.limit != 0 && len(vals) >= c.limit {
		vals = vals[:c.limit]
	}
	for _, val := range vals {
		infer.load(typ, val.Bytes())
	}
	c.target[typ] = infer.typeof(typ)
}

type Op struct {
	parent    Puller
	converter *converter
	limit     int
}

func (o *Op) Pull(done bool) (Batch, error) {
	if o.converter == nil {
		o.converter = newConverter(o.limit)
	}
	for {
		batch, err := o.parent.Pull(false)
		if err != nil {
			return nil, err
		}
		if batch == nil {
			return o.converter.finish()
		}
		batch, err = o.converter.process(batch)
		if err != nil {
			return nil, err
		}
		if batch != nil {
			return batch, nil
		}
	}
}
