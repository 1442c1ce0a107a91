package fixed

import (
	"context"
	"errors"
	"sync"
)

// ErrInboxFull is returned by Submit when the inbox has reached its capacity.
var ErrInboxFull = errors.New("proxy: request queue is full")

// ErrQueueClosed is returned when Submit or Next is called on a closed queue.
var ErrQueueClosed = errors.New("proxy: queue is closed")

// ErrDuplicateID is returned by Submit when a request with the same Id is
// already pending.
var ErrDuplicateID = errors.New("proxy: duplicate request Id")

// ErrEmptyID is returned by Submit when the request has no Id set.
var ErrEmptyID = errors.New("proxy: request has empty Id")

// Queue is the broker between HTTP producers (Handler.ServeHTTP) and PHP
// consumers (proxy.Server.FetchRequest / SendResponse).
type Queue struct {
	inbox chan *HttpHandlerRequest

	mu      sync.Mutex
	pending map[string]chan *HttpHandlerResponse
	closed  bool
}

func NewQueue(inboxSize int) *Queue {
	if inboxSize < 0 {
		inboxSize = 0
	}
	return &Queue{
		inbox:   make(chan *HttpHandlerRequest, inboxSize),
		pending: make(map[string]chan *HttpHandlerResponse),
	}
}

// Submit registers a response slot keyed by req.Id and enqueues the request.
func (q *Queue) Submit(req *HttpHandlerRequest) (<-chan *HttpHandlerResponse, error) {
	id := req.GetId()
	if id == "" {
		return nil, ErrEmptyID
	}

	respCh := make(chan *HttpHandlerResponse, 1)

	q.mu.Lock()
	defer q.mu.Unlock()

	if q.closed {
		return nil, ErrQueueClosed
	}
	if _, dup := q.pending[id]; dup {
		return nil, ErrDuplicateID
	}

	select {
	case q.inbox <- req:
		q.pending[id] = respCh
		return respCh, nil
	default:
		return nil, ErrInboxFull
	}
}

// Next blocks until a request is available (called by the worker-facing
// FetchRequest RPC, which then marshals the request for the PHP worker).
func (q *Queue) Next(ctx context.Context) (*HttpHandlerRequest, error) {
	select {
	case req, ok := <-q.inbox:
		if !ok {
			return nil, ErrQueueClosed
		}
		return req, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Deliver hands a response to whoever is waiting on this Id.
func (q *Queue) Deliver(id string, resp *HttpHandlerResponse) bool {
	q.mu.Lock()
	ch, ok := q.pending[id]
	if ok {
		delete(q.pending, id)
	}
	q.mu.Unlock()

	if !ok {
		return false
	}
	ch <- resp
	return true
}

// Cancel removes the pending entry. Idempotent.
func (q *Queue) Cancel(id string) {
	q.mu.Lock()
	delete(q.pending, id)
	q.mu.Unlock()
}
