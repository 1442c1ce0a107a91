// Package bug reproduces the shape of easegress-io/easegress#614
// (https://github.com/easegress-io/easegress/pull/614): httpstat results
// taken from httpStatResultPool were put back without being cleaned, so a
// failed request (no DNS lookup, no TLS handshake) reported the timings of
// the previous request that had used the object.
//
// Check: noreset (the pooled object goes back, and is reused, with the
// previous user's fields).
package bug

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
	statPool.Put(r) // want `noreset|without Reset|not reset|clear|stale|previous`
}
