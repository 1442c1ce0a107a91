// Package fixed is the fix of go-mysql-org/go-mysql#1131
// (https://github.com/go-mysql-org/go-mysql/pull/1131): Reset clears the
// re-sliced entries, so every slot is nil before the builder fills it.
package fixed

import "sync"

type Field struct {
	Name    string
	Charset uint16
}

type Resultset struct {
	Fields []*Field
	Values [][]any
}

func (r *Resultset) Reset(fieldsCount int) {
	r.Values = r.Values[:0]
	if cap(r.Fields) < fieldsCount {
		r.Fields = make([]*Field, fieldsCount)
	} else {
		r.Fields = r.Fields[:fieldsCount]
		clear(r.Fields)
	}
}

var resultsetPool = sync.Pool{New: func() any { return &Resultset{} }}

func NewResultset(names []string) *Resultset {
	r := resultsetPool.Get().(*Resultset)
	r.Reset(len(names))
	for i, n := range names {
		if r.Fields[i] == nil {
			r.Fields[i] = &Field{Name: n}
		}
	}
	return r
}

func ReturnToPool(r *Resultset) {
	resultsetPool.Put(r)
}
