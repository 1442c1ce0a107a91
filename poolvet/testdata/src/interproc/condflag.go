package interproc

import "sync"

type routing struct {
	id      string
	updated bool
}

var routingPool = sync.Pool{New: func() any { return new(routing) }}

func (r *routing) Delete() { routingPool.Put(r) } // want Delete:`pool:put\(0\)`

// Puts r when done is true, from a deferred closure.
func handleBody(r *routing, done bool) {
	defer func() {
		if done {
			r.Delete()
		}
	}()
	r.id = ""
}

// done is the constant true: the call puts r (vllm-project/aibrix#2440).
func process() {
	r := routingPool.Get().(*routing)
	handleBody(r, true)
	r.updated = true // want `r is used after it was put back into the pool`
}

// false: the call does not put r.
func processKeep() {
	r := routingPool.Get().(*routing)
	handleBody(r, false)
	r.updated = true
	r.Delete()
}

// A flag known only at run time: a conditional Put, nothing reported.
func processMaybe(done bool) {
	r := routingPool.Get().(*routing)
	handleBody(r, done)
	if !done {
		r.updated = true
		r.Delete()
	}
}

// Puts r unless keep is true.
func release(r *routing, keep bool) {
	if keep {
		return
	}
	routingPool.Put(r)
}

func releaseTwice() {
	r := routingPool.Get().(*routing)
	release(r, false)
	r.Delete() // want `r is put into the pool twice`
}
