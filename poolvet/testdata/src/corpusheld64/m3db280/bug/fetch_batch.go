// Source: https://github.com/m3db/m3db/pull/280
// (commit 6651f7e4cd80ed60c4f15dcf4368a5ca7ca1f568 in m3db/m3, "Fix fetch
// batch op pooling misuse")
//
// Bug: session.fetchAll builds pooled *fetchBatchOp values per host and
// hands them to the host queues (Enqueue -> drain -> asyncFetch goroutine).
// The goroutine calls op.complete(i, ...) for each id, which runs the
// session's completionFn. The completionFn that sees allPending reach zero
// put every fetch op back into fetchBatchOpPool (whose Put resets the op)
// while the host queue goroutine was still iterating the op (it re-reads
// op.Size() after each complete call) - and the same ops could be handed out
// to a concurrent fetch.
//
// Fix: the host queue takes ownership of the op: fetchBatchOp gets a ref
// count and a finalizer that returns it to the pool, the session takes a ref
// while filling the op and releases it when enqueueing, Enqueue takes a ref,
// and asyncFetch's cleanup does op.DecRef(); op.Finalize() after it is done
// (reading op.Size() once up front). The session no longer puts the ops.
//
// Check: useafterput (at s.fetchBatchOpPool.Put(op) in completionFn: the op
// was handed to the host queue's goroutine, which is still using it when the
// callback it runs puts the op back)
package bug

import "sync"

type completionFn func(result interface{}, err error)

type fetchBatchRawRequest struct {
	RangeStart int64
	RangeEnd   int64
	NameSpace  []byte
	Ids        [][]byte
}

type fetchBatchOp struct {
	request       fetchBatchRawRequest
	completionFns []completionFn
}

func (f *fetchBatchOp) reset() {
	f.request.RangeStart = 0
	f.request.RangeEnd = 0
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

// ObjectPool is a trimmed m3x pool.ObjectPool.
type ObjectPool interface {
	Init(alloc func() interface{})
	Get() interface{}
	Put(obj interface{})
}

type chanObjectPool struct {
	values chan interface{}
	alloc  func() interface{}
}

func newObjectPool(size int) ObjectPool {
	return &chanObjectPool{values: make(chan interface{}, size)}
}

func (p *chanObjectPool) Init(alloc func() interface{}) {
	p.alloc = alloc
	for i := 0; i < cap(p.values); i++ {
		p.values <- alloc()
	}
}

func (p *chanObjectPool) Get() interface{} {
	select {
	case v := <-p.values:
		return v
	default:
		return p.alloc()
	}
}

func (p *chanObjectPool) Put(obj interface{}) {
	select {
	case p.values <- obj:
	default:
	}
}

type fetchBatchOpPool struct {
	pool     ObjectPool
	capacity int
}

func newFetchBatchOpPool(size, capacity int) *fetchBatchOpPool {
	return &fetchBatchOpPool{pool: newObjectPool(size), capacity: capacity}
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

type fetchBatchOpArrayArrayPool struct {
	pool    sync.Pool
	entries int
}

func (p *fetchBatchOpArrayArrayPool) Get() [][]*fetchBatchOp {
	if v, ok := p.pool.Get().([][]*fetchBatchOp); ok {
		return v
	}
	return make([][]*fetchBatchOp, p.entries)
}

func (p *fetchBatchOpArrayArrayPool) Put(arr [][]*fetchBatchOp) {
	for i := range arr {
		arr[i] = arr[i][:0]
	}
	p.pool.Put(arr)
}
