// Package bug is the fixed twin of twmb/franz-go commit 1d15100e
// (https://github.com/twmb/franz-go/commit/1d15100e691da85b02d2fb31fe76cd87bf26e99f): failing a batch now
// takes the batch's lock and detaches the records from the batch before the slice goes back to the pool, and
// AppendTo, under the same lock, skips a batch whose records were cleared.
// Check: useafterput (none expected here).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

type promisedRec struct {
	value   []byte
	promise func(error)
}

type promisedNumberedRecord struct {
	promisedRec
	offsetDelta int32
}

var noPNR promisedNumberedRecord

var emptyRecordsPool = sync.Pool{
	New: func() interface{} {
		r := make([]promisedNumberedRecord, 0, 100)
		return &r
	},
}

type recBatch struct {
	wireLength int32

	// mu guards records against being cleared by a failure while a buffered request is being written.
	mu      sync.Mutex
	records []promisedNumberedRecord
}

func (b *recBatch) appendRecord(pr promisedRec) {
	b.wireLength += int32(len(pr.value))
	b.records = append(b.records, promisedNumberedRecord{promisedRec: pr, offsetDelta: int32(len(b.records))})
}

func (b *recBatch) appendTo(dst []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(b.wireLength))
	for _, pnr := range b.records {
		dst = binary.BigEndian.AppendUint32(dst, uint32(pnr.offsetDelta))
		dst = append(dst, pnr.value...)
	}
	return dst
}

type recBuf struct {
	mu      sync.Mutex
	topic   string
	part    int32
	batches []*recBatch
}

func (recBuf *recBuf) newRecordBatch(pr promisedRec) *recBatch {
	b := &recBatch{records: (*(emptyRecordsPool.Get().(*[]promisedNumberedRecord)))[:0]}
	b.appendRecord(pr)
	return b
}

func (recBuf *recBuf) bufferRecord(pr promisedRec) {
	recBuf.mu.Lock()
	defer recBuf.mu.Unlock()
	if len(recBuf.batches) == 0 || len(recBuf.batches[len(recBuf.batches)-1].records) >= 100 {
		recBuf.batches = append(recBuf.batches, recBuf.newRecordBatch(pr))
		return
	}
	recBuf.batches[len(recBuf.batches)-1].appendRecord(pr)
}

func (recBuf *recBuf) failAllRecords(err error) {
	recBuf.mu.Lock()
	defer recBuf.mu.Unlock()
	recBuf.lockedFailAllRecords(err)
}

func (recBuf *recBuf) lockedFailAllRecords(err error) {
	for _, batch := range recBuf.batches {
		batch.mu.Lock()
		for i, pnr := range batch.records {
			pnr.promise(err)
			batch.records[i] = noPNR
		}
		records := batch.records[:0]
		batch.records = nil
		batch.mu.Unlock()
		if cap(records) <= 100 {
			emptyRecordsPool.Put(&records)
		}
	}
	recBuf.batches = nil
}

type produceRequest struct {
	batches map[string]map[int32]*recBatch
}

// AppendTo is called by the connection's writer goroutine, possibly well after the request was buffered.
func (p *produceRequest) AppendTo(dst []byte) []byte {
	for topic, partitions := range p.batches {
		dst = append(dst, topic...)
		for partition, batch := range partitions {
			batch.mu.Lock()
			if batch.records == nil {
				batch.mu.Unlock()
				continue
			}
			dst = binary.BigEndian.AppendUint32(dst, uint32(partition))
			dst = batch.appendTo(dst)
			batch.mu.Unlock()
		}
	}
	return dst
}

type sink struct {
	writes chan *produceRequest
}

func (s *sink) produce(bufs []*recBuf) {
	req := &produceRequest{batches: make(map[string]map[int32]*recBatch)}
	for _, recBuf := range bufs {
		recBuf.mu.Lock()
		if len(recBuf.batches) > 0 {
			if req.batches[recBuf.topic] == nil {
				req.batches[recBuf.topic] = make(map[int32]*recBatch)
			}
			req.batches[recBuf.topic][recBuf.part] = recBuf.batches[0]
		}
		recBuf.mu.Unlock()
	}
	s.writes <- req
}

func (s *sink) writeLoop(send func([]byte) error, bufs []*recBuf) {
	for req := range s.writes {
		if err := send(req.AppendTo(nil)); err != nil {
			for _, recBuf := range bufs {
				recBuf.failAllRecords(errors.New("produce failed: " + err.Error()))
			}
		}
	}
}
