// Source: https://github.com/brimdata/super/pull/5029
// (commit 31dac91e416accc74867ef314af82f0058bf356c, "Fix batch reference
// counting in runtime/sam/op.applier").
//
// Bug: zbuf.Batch is reference counted; when a pullerBatch's count falls to
// zero, Unref puts it into pullerBatchPool (a sync.Pool) and its buffer is
// reused by the next Pull. applier.Pull evaluates an expression over each
// value of the parent batch; the results (e.g. a field of a record) point
// into the parent batch's buffer. It then returned zbuf.NewBatch(batch, out)
// with a deferred batch.Unref(), so the parent went back to the pool while
// the returned batch still referred to its memory: "applier.Pull returns a
// batch of values pointing into a parent batch but unrefs the parent,
// allowing it to be recycled. That can corrupt the returned batch."
//
// Fix: do not unref the parent batch when its values are returned (the
// deferred Unref was removed).
//
// Check: useafterput (the return of zbuf.NewBatch(batch, out) lets memory of
// the batch outlive the deferred batch.Unref() that puts it into the pool)
package bug

import (
	"sync"
	"sync/atomic"
)

type Value struct {
	Bytes []byte
}

func (v Value) IsError() bool   { return v.Bytes == nil }
func (v Value) IsQuiet() bool   { return v.Bytes == nil }
func (v Value) IsMissing() bool { return v.Bytes == nil }

func (v Value) Copy() Value {
	return Value{Bytes: append([]byte(nil), v.Bytes...)}
}

type Batch interface {
	Ref()
	Unref()
	Values() []Value
	Vars() []Value
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
		panic("zbuf: negative batch reference count")
	}
}

func (b *pullerBatch) Values() []Value { return b.vals }
func (*pullerBatch) Vars() []Value     { return nil }

type array struct {
	values []Value
}

func NewArray(vals []Value) *array { return &array{values: vals} }

func (a *array) Ref()            {}
func (a *array) Unref()          {}
func (a *array) Values() []Value { return a.values }
func (a *array) Vars() []Value   { return nil }

type batch struct {
	Batch
	vars []Value
}

func NewBatch(b Batch, vals []Value) Batch {
	return &batch{
		Batch: NewArray(vals),
		vars:  CopyVars(b),
	}
}

func (b *batch) Vars() []Value {
	return b.vars
}

func CopyVars(b Batch) []Value {
	vars := b.Vars()
	if len(vars) > 0 {
		newvars := make([]Value, len(vars))
		for k, v := range vars {
			newvars[k] = v.Copy()
		}
		vars = newvars
	}
	return vars
}

type Evaluator interface {
	Eval(Batch, Value) Value
}

// fieldExpr returns a slice of the record's bytes, as a record field access
// does; the result shares memory with the batch.
type fieldExpr struct {
	off, n int
}

func (f *fieldExpr) Eval(_ Batch, this Value) Value {
	if len(this.Bytes) < f.off+f.n {
		return Value{}
	}
	return Value{Bytes: this.Bytes[f.off : f.off+f.n]}
}

type applier struct {
	parent Puller
	expr   Evaluator
}

func NewApplier(parent Puller, expr Evaluator) *applier {
	return &applier{
		parent: parent,
		expr:   expr,
	}
}

func (a *applier) Pull(done bool) (Batch, error) {
	for {
		batch, err := a.parent.Pull(done)
		if batch == nil || err != nil {
			return nil, err
		}
		vals := batch.Values()
		out := make([]Value, 0, len(vals))
		for i := range vals {
			val := a.expr.Eval(batch, vals[i])
			if val.IsError() {
				if val.IsQuiet() || val.IsMissing() {
					continue
				}
			}
			out = append(out, val)
		}
		if len(out) > 0 {
			defer batch.Unref()
			return NewBatch(batch, out), nil // want `useafterput`
		}
		batch.Unref()
	}
}
