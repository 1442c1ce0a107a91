// Source: https://github.com/vllm-project/aibrix/commit/6011243a215a59ea830f355b1a7f5496578204f5
// ("fix(types): reset traceAdded when recycling RoutingContext from the
// pool (#2442)"), pkg/types/router_context.go and pkg/cache/cache_impl.go.
//
// Bug: RoutingContext is pooled in a sync.Pool (requestPool); Delete() puts
// it back and NewRoutingContext()/NewContext() take one out and call reset()
// to re-initialize the per-request state. reset() set statsUpdated back to
// statusInitial but forgot traceAdded, so a recycled context still had
// traceAdded == statusAdded from its previous request: CanAddTrace() (a CAS
// statusInitial -> statusAdded) then failed for the new request, its trace
// was never added and the matching pendingRequests +1 was silently skipped.
// Fix: reset() also sets r.traceAdded = statusInitial.
// (The commit addresses "Defect C1" of issue #2440, a separate defect from
// that headline use-after-Delete of the RoutingContext.)
//
// Check: noreset (at reset(), the project's reset function for the pooled
// RoutingContext, which forgets the traceAdded field)
package bug

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Pod stands in for k8s.io/api/core/v1.Pod.
type Pod struct {
	Name string
	IP   string
}

type OutputPredictor interface {
	Predict(promptLen int) int
}

type RoutingAlgorithm string

var (
	nilPod       = &Pod{}
	unknownError = errors.New("unknown error")
)

const (
	statusInitial = iota // 0: initial state
	statusAdded          // 1: added
	statusDone           // 2: done
)

// RoutingContext encapsulates the context information required for routing.
type RoutingContext struct {
	context.Context
	Algorithm      RoutingAlgorithm
	Model          string
	Engine         string
	Stream         bool
	Message        string
	RequestID      string
	User           *string
	RequestTime    time.Time
	RequestEndTime time.Time
	PendingLoad    float64
	TraceTerm      int64
	RoutedTime     time.Time

	ReqHeaders       map[string]string
	ReqBody          []byte
	ReqPath          string
	ReqConfigProfile string

	PrefillStartTime time.Time
	PrefillEndTime   time.Time

	RespHeaders map[string]string

	targetPodSet chan struct{}
	targetPod    atomic.Pointer[Pod]
	targetPort   atomic.Int32
	lastError    atomic.Pointer[error]
	tokens       []int           // Cache of tokenized prompts
	predictor    OutputPredictor // OutputPredictor gained from cache
	statsUpdated int32           // Use to flag if in-memory realtime statistics has been updated for the request.
	traceAdded   int32           // Use to flag if trace has been added to cache

	// Fields for unit tests
	debugDelay time.Duration
}

var requestPool = sync.Pool{
	New: func() any { return &RoutingContext{} },
}

// NewContext gets a RoutingContext with current RoutingAlgorithm.
func (alg RoutingAlgorithm) NewContext(ctx context.Context, model, message, requestID, user string) *RoutingContext {
	request := requestPool.Get().(*RoutingContext)
	request.reset(ctx, alg, model, message, requestID, user)
	return request
}

// NewRoutingContext gets a RoutingContext from a context pool.
func NewRoutingContext(ctx context.Context, algorithms RoutingAlgorithm, model, message, requestID, user string) *RoutingContext {
	request := requestPool.Get().(*RoutingContext)
	request.reset(ctx, algorithms, model, message, requestID, user)
	return request
}

// Delete resolves all waiting TargetPod() calls and releases the RoutingContext to the pool.
func (r *RoutingContext) Delete() {
	r.SetTargetPod(nil) // Unblock waiting TargetPod() call
	requestPool.Put(r)
}

func (r *RoutingContext) SetTargetPod(pod *Pod) {
	if r.targetPod.CompareAndSwap(nilPod, pod) { // Use CompareAndSwap to ensure close channel only once
		r.RoutedTime = time.Now()
		close(r.targetPodSet)
	}
}

func (r *RoutingContext) SetError(err error) {
	if err == nil {
		r.lastError.Store(&unknownError)
	} else {
		r.lastError.Store(&err)
	}
	r.SetTargetPod(nil)
}

// CanAddStats returns true if the first time trying update in-memory realtime statistics.
func (r *RoutingContext) CanAddStats() bool {
	return atomic.CompareAndSwapInt32(&r.statsUpdated, statusInitial, statusAdded)
}

func (r *RoutingContext) CanDoneStats() bool {
	return atomic.CompareAndSwapInt32(&r.statsUpdated, statusAdded, statusDone)
}

// CanAddTrace returns true if the first time trying add trace to cache.
func (r *RoutingContext) CanAddTrace() bool {
	return atomic.CompareAndSwapInt32(&r.traceAdded, statusInitial, statusAdded)
}

func (r *RoutingContext) reset(ctx context.Context, algorithms RoutingAlgorithm, model, message, requestID, user string) { // want `noreset`
	r.Context = ctx
	r.Algorithm = algorithms
	r.Model = model
	r.Engine = ""
	r.Stream = false
	r.Message = message
	r.RequestID = requestID
	if user != "" {
		r.User = &user
	} else {
		r.User = nil
	}
	r.RequestTime = time.Now()
	r.RequestEndTime = time.Time{}
	r.PendingLoad = 0
	r.TraceTerm = 0

	r.ReqHeaders = map[string]string{}
	r.ReqPath = ""
	r.ReqConfigProfile = ""
	r.ReqBody = []byte{}
	r.PrefillStartTime = time.Time{}
	r.PrefillEndTime = time.Time{}
	// RoutedTime will not be reset, it must before ReqeustTime at this time.

	r.RespHeaders = map[string]string{}
	r.targetPodSet = make(chan struct{}) // Initialize channel
	r.targetPod.Store(nilPod)
	r.targetPort.Store(0)
	r.lastError.Store(nil)
	// debugDelay will be reset by tests.
	r.tokens = nil
	r.predictor = nil
	r.statsUpdated = statusInitial
}

// Store is the trimmed cache.Store: AddRequestCount adds the request's
// trace and pending count only the first time for a RoutingContext.
type Store struct {
	enableTracing   bool
	traceTerm       int64
	pendingRequests int32
}

func (c *Store) AddRequestCount(ctx *RoutingContext, requestID string, modelName string) (traceTerm int64) {
	if ctx == nil || ctx.CanAddTrace() {
		if c.enableTracing {
			traceTerm = atomic.AddInt64(&c.traceTerm, 1)
			if ctx != nil {
				atomic.StoreInt64(&ctx.TraceTerm, traceTerm)
			}
		}
		atomic.AddInt32(&c.pendingRequests, 1)
	}
	return
}
