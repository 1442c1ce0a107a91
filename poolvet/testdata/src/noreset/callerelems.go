package noreset

import "sync"

// A pooled batch filled with slices loaded from the caller's request
// (batch.ids = append(batch.ids, req.ids[i])) and put back truncated: the
// elements past the new length keep the request's memory alive
// (grafana/tempo#5568).

type idRequest struct {
	ids [][]byte
}

type idBatch struct {
	ids [][]byte
}

type keyBatch struct {
	keys [][]byte
}

var keyBatchPool = sync.Pool{New: func() any { return new(keyBatch) }}

func putKeyBatch(b *keyBatch) {
	if cap(b.keys) > 1024 {
		return
	}
	b.keys = b.keys[:0]
	keyBatchPool.Put(b)
}

var idBatchPool = sync.Pool{New: func() any { return new(idBatch) }}

func putIDBatch(b *idBatch) {
	if cap(b.ids) > 1024 {
		return
	}
	b.ids = b.ids[:0]
	idBatchPool.Put(b) // want `noreset`
}

func splitIDs(req *idRequest, limit int) int {
	b := idBatchPool.Get().(*idBatch)
	defer putIDBatch(b)
	n := 0
	for i := range req.ids {
		if len(b.ids) == limit {
			n++
			b.ids = b.ids[:0]
		}
		b.ids = append(b.ids, req.ids[i])
	}
	return n
}

// copyKeys keeps copies of its own, not the caller's slices.
func copyKeys(b *keyBatch, req *idRequest) {
	for i := range req.ids {
		b.keys = append(b.keys, append([]byte(nil), req.ids[i]...))
	}
}

func keysOf(req *idRequest) int {
	b := keyBatchPool.Get().(*keyBatch)
	defer putKeyBatch(b)
	copyKeys(b, req)
	return len(b.keys)
}
