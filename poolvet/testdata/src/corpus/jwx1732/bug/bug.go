// Package bug reproduces the shape of lestrrat-go/jwx#1732
// (https://github.com/lestrrat-go/jwx/pull/1732): putFieldPairList put the
// list back as list[:0], a slice value (boxed on every Put), and without
// clearing, so the values stayed reachable from the pool.
//
// Check: nonpointer (a []T slice value put into a sync.Pool).
package bug

import "sync"

type fieldPair struct {
	Name  string
	Value any
}

var fieldPairPool = sync.Pool{New: func() any { return make([]fieldPair, 0, 16) }}

func getFieldPairList() []fieldPair {
	return fieldPairPool.Get().([]fieldPair)
}

func putFieldPairList(list []fieldPair) {
	fieldPairPool.Put(list[:0]) // want `non-pointer|nonpointer`
}

func Count(m map[string]any) int {
	list := getFieldPairList()
	for k, v := range m {
		list = append(list, fieldPair{Name: k, Value: v})
	}
	n := len(list)
	putFieldPairList(list)
	return n
}
