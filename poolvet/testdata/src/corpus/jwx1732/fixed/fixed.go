// Package fixed is a fixed twin of lestrrat-go/jwx#1732
// (https://github.com/lestrrat-go/jwx/pull/1732): the list is cleared and
// pooled through a pointer, so Put neither allocates nor keeps the values.
package fixed

import "sync"

type fieldPair struct {
	Name  string
	Value any
}

var fieldPairPool = sync.Pool{New: func() any { s := make([]fieldPair, 0, 16); return &s }}

func getFieldPairList() *[]fieldPair {
	return fieldPairPool.Get().(*[]fieldPair)
}

func putFieldPairList(list *[]fieldPair) {
	if cap(*list) > 256 {
		return
	}
	clear(*list)
	*list = (*list)[:0]
	fieldPairPool.Put(list)
}

func Count(m map[string]any) int {
	list := getFieldPairList()
	for k, v := range m {
		*list = append(*list, fieldPair{Name: k, Value: v})
	}
	n := len(*list)
	putFieldPairList(list)
	return n
}
