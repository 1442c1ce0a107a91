// Package bug reproduces the shape of matrixorigin/matrixone#25909 (https://github.com/matrixorigin/matrixone/pull/25909):
// the CN-side TxnSender dispatched requests for a local TN through a pooled localStream whose
// worker goroutine reads requests from ls.in, runs the handler and writes the response into
// ls.out. In a mixed batch, a local request is queued first; if creating or sending a later
// remote stream fails, SendResult.Release closes the local stream, and Close hands it straight
// back to the sync.Pool. The worker is still running the queued request and then writes its
// response into the out channel of a stream that now belongs to the pool; the next Send reuses
// that stream and consumes the stale response as its own. The fix drops the pooled
// asynchronous adapter and runs local handlers synchronously.
// Check: useafterput (the worker writes into ls.out after Close put ls back into the pool).
package bug

import (
	"context"
	"errors"
	"sync"
)

type TxnRequest struct {
	RequestID uint64
	ShardID   uint64
	Commit    bool
	Payload   []byte
}

type TxnResponse struct {
	RequestID uint64
	TxnError  string
	Payload   []byte
}

func (r *TxnResponse) Reset() { *r = TxnResponse{} }

type TxnRequestHandleFunc func(ctx context.Context, req *TxnRequest, resp *TxnResponse) error

type Stream interface {
	ID() uint64
	Send(ctx context.Context, req *TxnRequest) error
	Receive() (chan *TxnResponse, error)
	Close() error
}

type LocalDispatch func(shardID uint64) TxnRequestHandleFunc

type RemoteDialer func(ctx context.Context, shardID uint64) (Stream, error)

type sender struct {
	localDispatch LocalDispatch
	dial          RemoteDialer

	pool struct {
		resultPool      *sync.Pool
		responsePool    *sync.Pool
		localStreamPool *sync.Pool
	}
}

func NewSender(local LocalDispatch, dial RemoteDialer) *sender {
	s := &sender{localDispatch: local, dial: dial}
	s.pool.localStreamPool = &sync.Pool{
		New: func() any {
			return newLocalStream(s.releaseLocalStream, s.acquireResponse)
		},
	}
	s.pool.resultPool = &sync.Pool{
		New: func() any {
			return &SendResult{pool: s.pool.resultPool, streams: make(map[uint64]Stream, 16)}
		},
	}
	s.pool.responsePool = &sync.Pool{
		New: func() any { return &TxnResponse{} },
	}
	return s
}

func (s *sender) acquireLocalStream() *localStream {
	return s.pool.localStreamPool.Get().(*localStream)
}

func (s *sender) releaseLocalStream(ls *localStream) {
	s.pool.localStreamPool.Put(ls)
}

func (s *sender) acquireResponse() *TxnResponse {
	return s.pool.responsePool.Get().(*TxnResponse)
}

func (s *sender) releaseResponse(resp *TxnResponse) {
	resp.Reset()
	s.pool.responsePool.Put(resp)
}

func (s *sender) acquireSendResult() *SendResult {
	return s.pool.resultPool.Get().(*SendResult)
}

func (s *sender) createStream(ctx context.Context, shardID uint64) (Stream, error) {
	if s.localDispatch != nil {
		if handle := s.localDispatch(shardID); handle != nil {
			ls := s.acquireLocalStream()
			ls.setup(ctx, handle)
			return ls, nil
		}
	}
	return s.dial(ctx, shardID)
}

// Send sends all requests first, then receives every response.
func (s *sender) Send(ctx context.Context, requests []TxnRequest) (*SendResult, error) {
	sr := s.acquireSendResult()
	sr.reset(requests)
	for idx := range requests {
		shardID := requests[idx].ShardID
		st := sr.getStream(shardID)
		if st == nil {
			v, err := s.createStream(ctx, shardID)
			if err != nil {
				sr.Release()
				return nil, err
			}
			st = v
			sr.setStream(shardID, v)
		}

		requests[idx].RequestID = st.ID()
		if err := st.Send(ctx, &requests[idx]); err != nil {
			sr.Release()
			return nil, err
		}
	}

	for idx := range requests {
		st := sr.getStream(requests[idx].ShardID)
		c, err := st.Receive()
		if err != nil {
			sr.Release()
			return nil, err
		}
		resp, ok := <-c
		if !ok || resp == nil {
			sr.Release()
			return nil, errors.New("stream closed")
		}
		sr.setResponse(resp, idx)
		s.releaseResponse(resp)
	}
	return sr, nil
}

type sendMessage struct {
	request         *TxnRequest
	handleFunc      TxnRequestHandleFunc
	responseFactory func() *TxnResponse
	ctx             context.Context
}

type localStream struct {
	releaseFunc     func(ls *localStream)
	responseFactory func() *TxnResponse
	in              chan sendMessage
	out             chan *TxnResponse

	// reset fields
	closed     bool
	handleFunc TxnRequestHandleFunc
	ctx        context.Context
}

func newLocalStream(releaseFunc func(ls *localStream), responseFactory func() *TxnResponse) *localStream {
	ls := &localStream{
		releaseFunc:     releaseFunc,
		responseFactory: responseFactory,
		in:              make(chan sendMessage, 32),
		out:             make(chan *TxnResponse, 32),
	}
	ls.start()
	return ls
}

func (ls *localStream) setup(ctx context.Context, handleFunc TxnRequestHandleFunc) {
	ls.handleFunc = handleFunc
	ls.ctx = ctx
	ls.closed = false
}

func (ls *localStream) ID() uint64 { return 0 }

func (ls *localStream) Send(ctx context.Context, request *TxnRequest) error {
	if ls.closed {
		panic("send after closed")
	}
	ls.in <- sendMessage{
		request:         request,
		handleFunc:      ls.handleFunc,
		responseFactory: ls.responseFactory,
		ctx:             ls.ctx,
	}
	return nil
}

func (ls *localStream) Receive() (chan *TxnResponse, error) {
	if ls.closed {
		panic("receive after closed")
	}
	return ls.out, nil
}

// Close returns the stream to the sender's pool.
func (ls *localStream) Close() error {
	if ls.closed {
		return nil
	}
	ls.closed = true
	ls.ctx = nil
	ls.handleFunc = nil
	ls.releaseFunc(ls)
	return nil
}

// start runs the persistent worker of the stream.
func (ls *localStream) start() {
	go func(in chan sendMessage, out chan *TxnResponse) {
		for {
			v, ok := <-in
			if !ok {
				return
			}
			response := v.responseFactory()
			if err := v.handleFunc(v.ctx, v.request, response); err != nil {
				response.TxnError = err.Error()
			}
			out <- response // want `useafterput`
		}
	}(ls.in, ls.out)
}

// SendResult wraps the responses of one Send for reuse.
type SendResult struct {
	pool      *sync.Pool
	streams   map[uint64]Stream
	Responses []TxnResponse
}

func (sr *SendResult) reset(requests []TxnRequest) {
	sr.Responses = sr.Responses[:0]
	for range requests {
		sr.Responses = append(sr.Responses, TxnResponse{})
	}
}

func (sr *SendResult) setStream(shardID uint64, st Stream) { sr.streams[shardID] = st }

func (sr *SendResult) getStream(shardID uint64) Stream { return sr.streams[shardID] }

func (sr *SendResult) setResponse(resp *TxnResponse, index int) {
	sr.Responses[index] = *resp
	sr.Responses[index].Payload = append([]byte(nil), resp.Payload...)
}

// Release closes the streams and returns the result to its pool.
func (sr *SendResult) Release() {
	if sr.pool == nil {
		return
	}
	for k, st := range sr.streams {
		if st != nil {
			_ = st.Close()
		}
		delete(sr.streams, k)
	}
	for i := range sr.Responses {
		sr.Responses[i] = TxnResponse{}
	}
	sr.Responses = sr.Responses[:0]
	if cap(sr.Responses) > maxPooledResponses {
		return
	}
	sr.pool.Put(sr)
}

const maxPooledResponses = 1024
