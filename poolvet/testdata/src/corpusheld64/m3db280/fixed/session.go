package fixed

import (
	"sync"
	"sync/atomic"
)

type session struct {
	sync.RWMutex

	queues                     []*queue
	replicas                   func(id string) []int
	fetchBatchSize             int
	fetchBatchOpPool           *fetchBatchOpPool
	fetchBatchOpArrayArrayPool *fetchBatchOpArrayArrayPool
}

func (s *session) fetchAll(namespace []byte, ids []string, rangeStart, rangeEnd int64) ([][]interface{}, error) {
	var (
		wg                     sync.WaitGroup
		fetchBatchOpsByHostIdx [][]*fetchBatchOp
		enqueueErr             error
		resultLock             sync.Mutex
		results                = make([][]interface{}, len(ids))
	)

	s.RLock()
	fetchBatchOpsByHostIdx = s.fetchBatchOpArrayArrayPool.Get()

	for idx := range ids {
		idx := idx

		var pending int32

		wg.Add(1)
		completionFn := func(result interface{}, err error) {
			if err == nil {
				resultLock.Lock()
				results[idx] = append(results[idx], result)
				resultLock.Unlock()
			}
			if atomic.AddInt32(&pending, -1) == 0 {
				wg.Done()
			}
		}

		for _, hostIdx := range s.replicas(ids[idx]) {
			pending++

			ops := fetchBatchOpsByHostIdx[hostIdx]

			var f *fetchBatchOp
			if len(ops) > 0 {
				// Find the last and potentially current fetch op for this host
				f = ops[len(ops)-1]
			}
			if f == nil || f.Size() >= s.fetchBatchSize {
				// If no current fetch op or existing one is at batch capacity add one
				// NB(r): Note that we defer to the host queue to take ownership
				// of these ops and for returning the ops to the pool when done as
				// they know when their use is complete.
				f = s.fetchBatchOpPool.Get()
				f.IncRef()
				fetchBatchOpsByHostIdx[hostIdx] = append(fetchBatchOpsByHostIdx[hostIdx], f)
				f.request.RangeStart = rangeStart
				f.request.RangeEnd = rangeEnd
			}

			// Append IDWithNamespace to this request
			f.append(namespace, []byte(ids[idx]), completionFn)
		}
	}

	// Enqueue fetch ops
	for idx := range fetchBatchOpsByHostIdx {
		for _, f := range fetchBatchOpsByHostIdx[idx] {
			// Passing ownership of the op itself to the host queue
			f.DecRef()
			if err := s.queues[idx].Enqueue(f); err != nil && enqueueErr == nil {
				enqueueErr = err
				break
			}
		}
		if enqueueErr != nil {
			break
		}
	}
	s.fetchBatchOpArrayArrayPool.Put(fetchBatchOpsByHostIdx)
	s.RUnlock()

	if enqueueErr != nil {
		return nil, enqueueErr
	}

	wg.Wait()
	return results, nil
}
