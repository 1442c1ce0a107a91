// Package bug reproduces the shape of golang/go#53558 (https://github.com/golang/go/issues/53558): the reporter's code managed objects with a sync.Pool and, through a cleanup path that was "not rigorous", called pool.Put(x) twice with the same object. sync.Pool does not detect this, so two later Gets returned the same pointer to two users. Here the failure branch releases the object early but does not return, and the common exit releases it again.
//
// Check: doubleput (second direct Put of the same object on the error path).
package bug

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
	}
	objectPool.Put(o) // want `twice|doubleput`
	return err
}
