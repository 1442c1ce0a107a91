// Package bug reproduces the shape of grafana/tempo#5117 (https://github.com/grafana/tempo/pull/5117):
// the Kafka ingest encoder splits a large PushBytesRequest into batches, borrowing a scratch
// request from encoderPool via encoderPoolGet and returning it with a deferred encoderPoolPut.
// encoderPoolPut empties the Traces and Ids slices but forgets the SkipMetricsGeneration flag
// added to the message later, so a request that set it leaks the flag into the next batch
// that reuses the pooled object (metrics silently skipped for another tenant's traces). The
// fix resets SkipMetricsGeneration before the Put.
// (Both twins clear the slice contents and bound the capacity so that only the forgotten flag
// differs.)
// Check: noreset (reported at the Put in encoderPoolPut).
package bug

import (
	"errors"
	"sync"
)

type PreallocBytes struct {
	Slice []byte
}

type PushBytesRequest struct {
	Traces                []PreallocBytes
	Ids                   [][]byte
	SkipMetricsGeneration bool
}

func (r *PushBytesRequest) Marshal() ([]byte, error) {
	var out []byte
	for i, t := range r.Traces {
		out = append(out, r.Ids[i]...)
		out = append(out, t.Slice...)
	}
	if r.SkipMetricsGeneration {
		out = append(out, 1)
	}
	return out, nil
}

type Record struct {
	Key       []byte
	Value     []byte
	Partition int32
}

const maxPooledEntries = 1024

var encoderPool = sync.Pool{
	New: func() any {
		return &PushBytesRequest{}
	},
}

func encoderPoolGet() *PushBytesRequest {
	x := encoderPool.Get()
	if x != nil {
		return x.(*PushBytesRequest)
	}
	return &PushBytesRequest{
		Traces: make([]PreallocBytes, 0, 10),
		Ids:    make([][]byte, 0, 10),
	}
}

func encoderPoolPut(req *PushBytesRequest) {
	if cap(req.Traces) > maxPooledEntries || cap(req.Ids) > maxPooledEntries {
		return
	}
	clear(req.Traces[:cap(req.Traces)])
	clear(req.Ids[:cap(req.Ids)])
	req.Traces = req.Traces[:0]
	req.Ids = req.Ids[:0]
	encoderPool.Put(req) // want `noreset`
}

func toRecord(partition int32, tenant string, req *PushBytesRequest) (*Record, error) {
	data, err := req.Marshal()
	if err != nil {
		return nil, err
	}
	return &Record{Key: []byte(tenant), Value: data, Partition: partition}, nil
}

// Encode splits req into records of at most maxSize bytes.
func Encode(partition int32, tenant string, req *PushBytesRequest, maxSize int) ([]*Record, error) {
	var records []*Record
	batch := encoderPoolGet()
	defer encoderPoolPut(batch)

	if req.SkipMetricsGeneration {
		batch.SkipMetricsGeneration = true
	}
	size := 0
	for i, entry := range req.Traces {
		n := len(entry.Slice) + len(req.Ids[i]) + 2
		if n > maxSize {
			return nil, errors.New("single entry too large")
		}
		if size+n > maxSize && len(batch.Traces) > 0 {
			rec, err := toRecord(partition, tenant, batch)
			if err != nil {
				return nil, err
			}
			records = append(records, rec)
			batch.Traces = batch.Traces[:0]
			batch.Ids = batch.Ids[:0]
			size = 0
		}
		batch.Traces = append(batch.Traces, entry)
		batch.Ids = append(batch.Ids, req.Ids[i])
		size += n
	}
	if len(batch.Traces) > 0 {
		rec, err := toRecord(partition, tenant, batch)
		if err != nil {
			return nil, err
		}
		records = append(records, rec)
	}
	return records, nil
}
