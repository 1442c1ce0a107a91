// Package bug is the fixed twin of matrixorigin/matrixone#25909 (https://github.com/matrixorigin/matrixone/pull/25909):
// the pooled asynchronous localStream adapter is gone; local requests are handled synchronously
// inside Send and their response is stored at the request's index, so nothing keeps running
// after a SendResult is released, and only remote streams are closed by Release.
// Check: useafterput (none expected here).
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
		resultPool   *sync.Pool
		responsePool *sync.Pool
	}
}

func NewSender(local LocalDispatch, dial RemoteDialer) *sender {
	s := &sender{localDispatch: local, dial: dial}
	s.pool.resultPool = &sync.Pool{
		New: func() any {
			rs := &SendResult{pool: s.pool.resultPool, streams: make(map[uint64]Stream, 16)}
			if s.localDispatch != nil {
				rs.localHandlers = make(map[uint64]TxnRequestHandleFunc, 1)
			}
			return rs
		},
	}
	s.pool.responsePool = &sync.Pool{
		New: func() any { return &TxnResponse{} },
	}
	return s
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

func (s *sender) handleLocalRequest(ctx context.Context, handler TxnRequestHandleFunc, req *TxnRequest, sr *SendResult, idx int) {
	response := s.acquireResponse()
	if err := handler(ctx, req, response); err != nil {
		response.TxnError = err.Error()
	}
	sr.setResponse(response, idx)
	s.releaseResponse(response)
}

// Send runs local requests inline and sends remote ones first, then receives their responses.
func (s *sender) Send(ctx context.Context, requests []TxnRequest) (*SendResult, error) {
	sr := s.acquireSendResult()
	sr.reset(requests)
	for idx := range requests {
		shardID := requests[idx].ShardID
		if s.localDispatch != nil {
			handler, resolved := sr.localHandlers[shardID]
			if !resolved {
				handler = s.localDispatch(shardID)
				sr.localHandlers[shardID] = handler
			}
			if handler != nil {
				requests[idx].RequestID = 0
				s.handleLocalRequest(ctx, handler, &requests[idx], sr, idx)
				continue
			}
		}

		st := sr.getStream(shardID)
		if st == nil {
			v, err := s.dial(ctx, shardID)
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
		if st == nil {
			// handled locally above
			continue
		}
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

// SendResult wraps the responses of one Send for reuse.
type SendResult struct {
	pool          *sync.Pool
	streams       map[uint64]Stream
	localHandlers map[uint64]TxnRequestHandleFunc
	Responses     []TxnResponse
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

// Release closes the remote streams and returns the result to its pool.
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
	for k := range sr.localHandlers {
		delete(sr.localHandlers, k)
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
