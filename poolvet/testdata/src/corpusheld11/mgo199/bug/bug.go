// Package bug reproduces the shape of globalsign/mgo#199, which fixed
// globalsign/mgo#197 (https://github.com/globalsign/mgo/pull/199).
// Bulk.Run handed each queued action back to a sync.Pool as soon as it had
// been sent, but the Bulk kept the actions in its b.actions list. A later
// Insert on the same Bulk looked up the last action in that list and appended
// to it, i.e. wrote to an object the pool may already have given to another
// Bulk ("the reference to the action object is modified after being put back
// into the pool").
//
// Check: useafterput (retention: a method puts the elements of a slice held in
// a struct field and leaves them there; the caller's next method call reads
// and writes them). The report belongs at the second Insert, the first use of
// the list after Run put its elements back (unsure: an analyzer that reasons
// per function may instead flag Run for leaving the put elements in the
// field).
package bug

import "sync"

type bulkOp int

const (
	opInsert bulkOp = iota + 1
	opRemove
)

type bulkAction struct {
	op   bulkOp
	docs [][]byte
	idxs []int
}

var actionPool = sync.Pool{New: func() any {
	return &bulkAction{docs: make([][]byte, 0), idxs: make([]int, 0)}
}}

type Collection struct {
	sent [][]byte
}

func (c *Collection) write(docs [][]byte) error {
	c.sent = append(c.sent, docs...)
	return nil
}

type Bulk struct {
	c       *Collection
	opcount int
	actions []*bulkAction
}

func (c *Collection) Bulk() *Bulk { return &Bulk{c: c} }

// action returns the action the next op joins: the last queued one when it
// has the same kind, or a fresh one from the pool.
func (b *Bulk) action(op bulkOp, n int) *bulkAction {
	var a *bulkAction
	if len(b.actions) > 0 && b.actions[len(b.actions)-1].op == op {
		a = b.actions[len(b.actions)-1]
	} else {
		a = actionPool.Get().(*bulkAction)
		a.op = op
		b.actions = append(b.actions, a)
	}
	for i := 0; i < n; i++ {
		a.idxs = append(a.idxs, b.opcount)
		b.opcount++
	}
	return a
}

func (b *Bulk) Insert(docs ...[]byte) {
	a := b.action(opInsert, len(docs))
	a.docs = append(a.docs, docs...)
}

// Run sends every queued action and recycles it, but b.actions still lists
// the recycled actions afterwards.
func (b *Bulk) Run() error {
	var firstErr error
	for _, a := range b.actions {
		if err := b.c.write(a.docs); err != nil && firstErr == nil {
			firstErr = err
		}
		a.docs = a.docs[:0]
		a.idxs = a.idxs[:0]
		actionPool.Put(a)
	}
	return firstErr
}

// SaveTwice reuses one Bulk for two batches, as the driver allows.
func SaveTwice(c *Collection, first, second [][]byte) error {
	b := c.Bulk()
	b.Insert(first...)
	if err := b.Run(); err != nil {
		return err
	}
	b.Insert(second...) // want `useafterput`
	return b.Run()
}
