package noreset

import (
	"sync"
	"sync/atomic"
)

// A pooled request context marks two once-per-request steps with atomic
// flags; its reset sets one back and forgets the other, so a recycled
// context never does that step again (vllm-project/aibrix 6011243).
const (
	afInitial int32 = iota
	afAdded
)

type afContext struct {
	model        string
	statsUpdated int32
	traceAdded   int32
}

var afContexts = sync.Pool{New: func() any { return new(afContext) }}

func (r *afContext) canAddStats() bool {
	return atomic.CompareAndSwapInt32(&r.statsUpdated, afInitial, afAdded)
}

func (r *afContext) canAddTrace() bool {
	return atomic.CompareAndSwapInt32(&r.traceAdded, afInitial, afAdded)
}

func (r *afContext) reset(model string) { // want `reset sets some of afContext's atomic state flags back but not traceAdded`
	r.model = model
	r.statsUpdated = afInitial
}

func afNew(model string) *afContext {
	r := afContexts.Get().(*afContext)
	r.reset(model)
	return r
}

func (r *afContext) release() { afContexts.Put(r) }

// Both flags set back: silent.
type afContext2 struct {
	model        string
	statsUpdated int32
	traceAdded   int32
}

var afContexts2 = sync.Pool{New: func() any { return new(afContext2) }}

func (r *afContext2) canAddStats() bool {
	return atomic.CompareAndSwapInt32(&r.statsUpdated, afInitial, afAdded)
}

func (r *afContext2) canAddTrace() bool {
	return atomic.CompareAndSwapInt32(&r.traceAdded, afInitial, afAdded)
}

func (r *afContext2) reset(model string) {
	r.model = model
	r.statsUpdated = afInitial
	r.traceAdded = afInitial
}

func afNew2(model string) *afContext2 {
	r := afContexts2.Get().(*afContext2)
	r.reset(model)
	return r
}

func (r *afContext2) release() { afContexts2.Put(r) }
