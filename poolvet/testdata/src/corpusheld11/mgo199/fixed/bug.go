// Package fixed is globalsign/mgo#199's fix
// (https://github.com/globalsign/mgo/pull/199): an action is reset when it is
// taken from the pool, and Run drops its list of actions once they have been
// recycled, so a reused Bulk starts from fresh actions. (The PR cleared the
// list on success only; here it is cleared on every path.)
package fixed

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

func (b *Bulk) action(op bulkOp, n int) *bulkAction {
	var a *bulkAction
	if len(b.actions) > 0 && b.actions[len(b.actions)-1].op == op {
		a = b.actions[len(b.actions)-1]
	} else {
		a = actionPool.Get().(*bulkAction)
		a.op = op
		a.docs = a.docs[:0]
		a.idxs = a.idxs[:0]
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
	b.actions = nil
	return firstErr
}

func SaveTwice(c *Collection, first, second [][]byte) error {
	b := c.Bulk()
	b.Insert(first...)
	if err := b.Run(); err != nil {
		return err
	}
	b.Insert(second...)
	return b.Run()
}
