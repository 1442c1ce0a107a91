// Package fixed is the fix of easegress-io/easegress#614
// (https://github.com/easegress-io/easegress/pull/614): the result is
// zeroed before it goes back to the pool.
package fixed

import (
	"sync"
	"time"
)

type statResult struct {
	NameLookup   time.Duration
	TLSHandshake time.Duration
	ServerDone   time.Duration
}

var statPool = sync.Pool{New: func() any { return &statResult{} }}

func doRequest(r *statResult, fail bool) {
	if fail {
		return
	}
	r.NameLookup = time.Millisecond
	r.TLSHandshake = 2 * time.Millisecond
	r.ServerDone = 3 * time.Millisecond
}

func Handle(fail bool, record func(statResult)) {
	r := statPool.Get().(*statResult)
	doRequest(r, fail)
	record(*r)
	*r = statResult{}
	statPool.Put(r)
}
