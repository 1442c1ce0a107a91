// Package bug reproduces the shape of rpcpool/yellowstone-faithful#352
// (https://github.com/rpcpool/yellowstone-faithful/pull/352): the gRPC
// GetBlock handler built its response in a *BlockResponse taken from a
// sync.Pool and deferred the call that resets it and puts it back. The
// deferred call runs after the return statement but before gRPC serializes
// the returned pointer, so clients received an empty (or another request's)
// block.
//
// Check: useafterput (the pooled object itself is returned past a deferred
// Put wrapper; the docs put the report at the return).
package bug

import (
	"context"
	"errors"
	"sync"
)

const maxKeptHash = 256

type Transaction struct {
	Signature []byte
	Meta      []byte
}

type BlockResponse struct {
	Slot         uint64
	Blockhash    []byte
	Transactions []*Transaction
}

// Reset clears the response for reuse, dropping oversized backing arrays.
func (r *BlockResponse) Reset() {
	r.Slot = 0
	if cap(r.Blockhash) > maxKeptHash {
		r.Blockhash = nil
	} else {
		r.Blockhash = r.Blockhash[:0]
	}
	clear(r.Transactions)
	r.Transactions = r.Transactions[:0]
}

var blockResponsePool = sync.Pool{New: func() any { return new(BlockResponse) }}

func GetBlockResponse() *BlockResponse {
	return blockResponsePool.Get().(*BlockResponse)
}

func PutBlockResponse(r *BlockResponse) {
	r.Reset()
	blockResponsePool.Put(r)
}

type GetBlockRequest struct {
	Slot uint64
}

type rawTx struct {
	sig  []byte
	meta []byte
}

type rawBlock struct {
	hash []byte
	txs  []rawTx
}

type Server struct {
	loadBlock func(ctx context.Context, slot uint64) (*rawBlock, error)
}

func (s *Server) GetBlock(ctx context.Context, req *GetBlockRequest) (*BlockResponse, error) {
	block, err := s.loadBlock(ctx, req.Slot)
	if err != nil {
		return nil, err
	}
	if block == nil {
		return nil, errors.New("block not found")
	}

	resp := GetBlockResponse()
	defer PutBlockResponse(resp)

	resp.Slot = req.Slot
	resp.Blockhash = append(resp.Blockhash[:0], block.hash...)
	for _, raw := range block.txs {
		resp.Transactions = append(resp.Transactions, &Transaction{
			Signature: raw.sig,
			Meta:      raw.meta,
		})
	}
	return resp, nil // want `useafterput`
}
