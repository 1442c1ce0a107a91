// Source: https://github.com/m3db/m3/commit/d5c30b57a15bc1d6d1d17b5adecb490b6160ec4d
// ("Fix misreading the length of a fetch batch op after freeing in in the op
// completion fn").
//
// Bug: session.fetchAllAttempt takes fetchBatchOps from fetchBatchOpPool and
// enqueues them on host queues. Each ID's completion fn, when the last
// pending fetch finishes (allPending reaches 0), puts every fetch op back
// into the pool. The host queue's asyncFetch loops over the op calling
// op.complete(i, ...) and re-evaluates op.Size() in the loop condition, so
// after the final completion fn has returned the op to the pool (where it is
// reset and handed to another fetch) the queue still reads the op's length.
//
// Fix: ownership of the op moves to the host queue via a ref count: the
// session no longer puts ops back in the completion fn; the queue reads the
// size once before completing (opLen := op.Size()) and its cleanup drops the
// ref and finalizes the op, which puts it back into the pool.
//
// Check: useafterput (op.Size() in asyncFetch's loop condition runs after the
// completion fn called by op.complete put the op back into fetchBatchOpPool)
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ObjectPool is m3x's channel backed object pool.
type ObjectPool struct {
	values chan interface{}
	alloc  func() interface{}
}

func NewObjectPool(size int) *ObjectPool {
	return &ObjectPool{values: make(chan interface{}, size)}
}

func (p *ObjectPool) Init(alloc func() interface{}) {
	p.alloc = alloc
	for i := 0; i < cap(p.values); i++ {
		p.values <- alloc()
	}
}

func (p *ObjectPool) Get() interface{} {
	select {
	case v := <-p.values:
		return v
	default:
		return p.alloc()
	}
}

func (p *ObjectPool) Put(v interface{}) {
	select {
	case p.values <- v:
	default:
	}
}

type completionFn func(result interface{}, err error)

type fetchBatchRawRequest struct {
	NameSpace []byte
	Ids       [][]byte
}

type fetchBatchOp struct {
	request       fetchBatchRawRequest
	completionFns []completionFn
}

func (f *fetchBatchOp) reset() {
	f.request.NameSpace = nil
	for i := range f.request.Ids {
		f.request.Ids[i] = nil
	}
	f.request.Ids = f.request.Ids[:0]
	for i := range f.completionFns {
		f.completionFns[i] = nil
	}
	f.completionFns = f.completionFns[:0]
}

func (f *fetchBatchOp) append(namespace, id []byte, fn completionFn) {
	f.request.NameSpace = namespace
	f.request.Ids = append(f.request.Ids, id)
	f.completionFns = append(f.completionFns, fn)
}

func (f *fetchBatchOp) Size() int {
	return len(f.request.Ids)
}

func (f *fetchBatchOp) completeAll(result interface{}, err error) {
	for idx := range f.completionFns {
		f.completionFns[idx](result, err)
	}
}

func (f *fetchBatchOp) complete(idx int, result interface{}, err error) {
	f.completionFns[idx](result, err)
}

type fetchBatchOpPool struct {
	pool     *ObjectPool
	capacity int
}

func (p *fetchBatchOpPool) Init() {
	p.pool.Init(func() interface{} {
		f := &fetchBatchOp{}
		f.request.Ids = make([][]byte, 0, p.capacity)
		f.completionFns = make([]completionFn, 0, p.capacity)
		f.reset()
		return f
	})
}

func (p *fetchBatchOpPool) Get() *fetchBatchOp {
	return p.pool.Get().(*fetchBatchOp)
}

func (p *fetchBatchOpPool) Put(f *fetchBatchOp) {
	if cap(f.request.Ids) != p.capacity || cap(f.completionFns) != p.capacity {
		// Grew outside capacity, do not return to pool
		return
	}
	f.reset()
	p.pool.Put(f)
}

type client interface {
	FetchBatchRaw(req *fetchBatchRawRequest) ([][]byte, error)
}

type queue struct {
	sync.WaitGroup
	client client
}

var errQueueFetchNoResponse = errors.New("no response")

func (q *queue) Enqueue(op *fetchBatchOp) error {
	q.asyncFetch(op)
	return nil
}

func (q *queue) asyncFetch(op *fetchBatchOp) {
	q.Add(1)
	go func() {
		// NB(r): Defer is slow in the hot path unfortunately
		cleanup := q.Done

		result, err := q.client.FetchBatchRaw(&op.request)
		if err != nil {
			op.completeAll(nil, err)
			cleanup()
			return
		}

		resultLen := len(result)
		for i := 0; i < op.Size(); i++ { // want `useafterput`
			if !(i < resultLen) {
				op.complete(i, nil, errQueueFetchNoResponse)
				continue
			}
			op.complete(i, result[i], nil)
		}
		cleanup()
	}()
}

type session struct {
	queues           []*queue
	fetchBatchOpPool *fetchBatchOpPool
	fetchBatchSize   int
}

func (s *session) fetchAllAttempt(namespace []byte, ids [][]byte, onResult func(int, interface{}, error)) error {
	var (
		allPending             = int32(len(ids) * len(s.queues))
		fetchBatchOpsByHostIdx = make([][]*fetchBatchOp, len(s.queues))
	)

	for idx := range ids {
		idx := idx
		completionFn := func(result interface{}, err error) {
			onResult(idx, result, err)

			allRemaining := atomic.AddInt32(&allPending, -1)
			if allRemaining == 0 {
				// Return fetch ops to pool
				for _, ops := range fetchBatchOpsByHostIdx {
					for _, op := range ops {
						s.fetchBatchOpPool.Put(op)
					}
				}
			}
		}

		for hostIdx := range s.queues {
			var f *fetchBatchOp
			if n := len(fetchBatchOpsByHostIdx[hostIdx]); n > 0 {
				f = fetchBatchOpsByHostIdx[hostIdx][n-1]
			}
			if f == nil || f.Size() >= s.fetchBatchSize {
				f = s.fetchBatchOpPool.Get()
				fetchBatchOpsByHostIdx[hostIdx] = append(fetchBatchOpsByHostIdx[hostIdx], f)
			}
			f.append(namespace, ids[idx], completionFn)
		}
	}

	var enqueueErr error
	for idx := range fetchBatchOpsByHostIdx {
		for _, f := range fetchBatchOpsByHostIdx[idx] {
			if err := s.queues[idx].Enqueue(f); err != nil && enqueueErr == nil {
				enqueueErr = err
				break
			}
		}
	}
	return enqueueErr
}
