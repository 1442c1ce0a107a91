// Package bug reproduces the shape of m3db/m3 commit 83b9de9
// (https://github.com/m3db/m3/commit/83b9de902321c91b46fe328b607831c30d312a03):
// the block retriever hands out pooled retrieveRequests, each of which borrows
// a pooled segment reader. Finalizing a request finalizes its reader, and the
// reader's Finalize already returns itself to the segment reader pool; the
// request pool's Put then returned the same reader to the segment reader pool a
// second time, so two later requests could share one reader.
// Check: doubleput (the segment reader Put inside reqPool.Put, reached from
// retrieveRequest.Finalize after req.reader.Finalize already put it back).
package bug

import "sync"

type segment struct {
	head []byte
	tail []byte
}

func (s *segment) Finalize() {
	s.head = nil
	s.tail = nil
}

// segmentReaderPool pools segment readers.
type segmentReaderPool struct {
	pool sync.Pool
}

func newSegmentReaderPool() *segmentReaderPool {
	p := &segmentReaderPool{}
	p.pool.New = func() interface{} {
		return &segmentReader{pool: p}
	}
	return p
}

func (p *segmentReaderPool) Get() *segmentReader {
	return p.pool.Get().(*segmentReader)
}

func (p *segmentReaderPool) Put(sr *segmentReader) {
	p.pool.Put(sr)
}

type segmentReader struct {
	segment segment
	si      int
	pool    *segmentReaderPool
}

func (sr *segmentReader) Reset(s segment) {
	sr.segment = s
	sr.si = 0
}

func (sr *segmentReader) Read(b []byte) int {
	n := copy(b, sr.segment.head[sr.si:])
	sr.si += n
	return n
}

// Finalize finalizes the segment and returns the reader to its pool.
func (sr *segmentReader) Finalize() {
	sr.segment.Finalize()
	sr.si = 0
	if pool := sr.pool; pool != nil {
		pool.Put(sr)
	}
}

type retrieveRequest struct {
	resultWg sync.WaitGroup
	pool     *reqPool

	shard      uint32
	seekOffset int
	reader     *segmentReader
	err        error
}

func (req *retrieveRequest) onRetrieved(s segment) {
	req.reader.Reset(s)
	req.resultWg.Done()
}

func (req *retrieveRequest) Read(b []byte) (int, error) {
	req.resultWg.Wait()
	if req.err != nil {
		return 0, req.err
	}
	return req.reader.Read(b), nil
}

// Finalize releases the reader and then the request itself.
func (req *retrieveRequest) Finalize() {
	req.reader.Finalize()
	req.pool.Put(req)
}

func (req *retrieveRequest) resetForReuse() {
	req.resultWg = sync.WaitGroup{}
	req.shard = 0
	req.seekOffset = -1
	req.reader = nil
	req.err = nil
}

type reqPool struct {
	segmentReaderPool *segmentReaderPool
	pool              sync.Pool
}

func newRetrieveRequestPool(srp *segmentReaderPool) *reqPool {
	p := &reqPool{segmentReaderPool: srp}
	p.pool.New = func() interface{} {
		return &retrieveRequest{pool: p}
	}
	return p
}

func (p *reqPool) Get() *retrieveRequest {
	req := p.pool.Get().(*retrieveRequest)
	req.resetForReuse()
	req.reader = p.segmentReaderPool.Get()
	return req
}

func (p *reqPool) Put(req *retrieveRequest) {
	p.segmentReaderPool.Put(req.reader) // want `doubleput`

	// Drop references before the request goes back to the pool.
	req.resetForReuse()
	p.pool.Put(req)
}

// Stream queues a retrieval and returns the request as a reader.
func Stream(p *reqPool, shard uint32, s segment) *retrieveRequest {
	req := p.Get()
	req.shard = shard
	req.resultWg.Add(1)
	go req.onRetrieved(s)
	return req
}

// Use reads a retrieved block and finalizes it.
func Use(p *reqPool, s segment) []byte {
	req := Stream(p, 1, s)
	buf := make([]byte, 64)
	n, err := req.Read(buf)
	req.Finalize()
	if err != nil {
		return nil
	}
	return buf[:n]
}

var _ = newRetrieveRequestPool(newSegmentReaderPool())
