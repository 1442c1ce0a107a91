package bug

import (
	"errors"
	"sync"
)

var errQueueFetchNoResponse = errors.New("no response for fetch entry")

type fetchResultElement struct {
	Segments interface{}
	Err      error
}

type fetchResult struct {
	Elements []fetchResultElement
}

type rpcClient interface {
	FetchBatchRaw(req *fetchBatchRawRequest) (*fetchResult, error)
}

type queue struct {
	sync.WaitGroup
	sync.Mutex

	client  rpcClient
	drainIn chan *fetchBatchOp
	closed  bool
}

func newHostQueue(client rpcClient) *queue {
	q := &queue{client: client, drainIn: make(chan *fetchBatchOp, 16)}
	go q.drain()
	return q
}

func (q *queue) drain() {
	for op := range q.drainIn {
		q.asyncFetch(op)
	}
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

		resultLen := len(result.Elements)
		for i := 0; i < op.Size(); i++ {
			if !(i < resultLen) {
				// No results for this entry, in practice should never occur
				op.complete(i, nil, errQueueFetchNoResponse)
				continue
			}
			if result.Elements[i].Err != nil {
				op.complete(i, nil, result.Elements[i].Err)
				continue
			}
			op.complete(i, result.Elements[i].Segments, nil)
		}
		cleanup()
	}()
}

func (q *queue) Enqueue(op *fetchBatchOp) error {
	q.Lock()
	if q.closed {
		q.Unlock()
		return errors.New("queue closed")
	}
	q.Unlock()
	q.drainIn <- op
	return nil
}
