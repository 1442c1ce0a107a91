// Package fixed is the repaired twin of golang/go#53558 (https://github.com/golang/go/issues/53558): the object is put back exactly once on every path (the early release returns).
package fixed

import "sync"

// Object is a pooled work item.
type Object struct {
	ID   int
	Name string
}

var objectPool = sync.Pool{New: func() any { return new(Object) }}

// Process fills a pooled object and hands it to sink for the duration of the call.
func Process(id int, name string, sink func(*Object) error) error {
	o := objectPool.Get().(*Object)
	o.ID, o.Name = id, name
	err := sink(o)
	*o = Object{}
	if err != nil {
		objectPool.Put(o) // release early on failure
		return err
	}
	objectPool.Put(o)
	return nil
}
