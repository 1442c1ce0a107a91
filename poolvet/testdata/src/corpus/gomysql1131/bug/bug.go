// Package bug reproduces the shape of go-mysql-org/go-mysql#1131
// (https://github.com/go-mysql-org/go-mysql/pull/1131): Resultset.Reset
// re-sliced r.Fields within the pooled backing array without clearing it,
// and builders that only fill nil slots reused the previous call's *Field
// (name, charset, flags) from whatever Resultset the pool returned.
//
// Check: noreset (a Reset that forgets to clear a field).
package bug

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
		r.Fields = r.Fields[:fieldsCount] // want `noreset|not reset|clear|stale|forg`
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
