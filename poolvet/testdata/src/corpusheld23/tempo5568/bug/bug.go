// Package bug reproduces the shape of grafana/tempo#5568
// (https://github.com/grafana/tempo/pull/5568): Encode splits a large
// PushBytesRequest into several Kafka records using a scratch request taken from
// encoderPool. encoderPoolPut "resets" it by truncating Traces and Ids to [:0],
// but the backing arrays still hold every trace payload and id slice of the
// finished request, so the pooled object keeps request data reachable (and could
// leak it to a later user). The fix clears both slices (clear) before reslicing,
// calls the message Reset and only then puts the request back.
// Check: noreset (the report belongs on the Put in encoderPoolPut).
package bug

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// PreallocBytes holds one serialized trace.
type PreallocBytes struct {
	Slice []byte
}

// Size is the encoded size of the trace.
func (p PreallocBytes) Size() int { return len(p.Slice) }

// PushBytesRequest is the batch sent to the ingest topic.
type PushBytesRequest struct {
	Traces                []PreallocBytes
	Ids                   [][]byte
	SkipMetricsGeneration bool
}

// Reset zeroes the message.
func (m *PushBytesRequest) Reset() { *m = PushBytesRequest{} }

// Size returns the encoded size of m.
func (m *PushBytesRequest) Size() int {
	n := 1
	for i, t := range m.Traces {
		n += 8 + t.Size() + len(m.Ids[i])
	}
	return n
}

// Marshal encodes m.
func (m *PushBytesRequest) Marshal() ([]byte, error) {
	out := make([]byte, 0, m.Size())
	for i, t := range m.Traces {
		out = binary.AppendUvarint(out, uint64(len(m.Ids[i])))
		out = append(out, m.Ids[i]...)
		out = binary.AppendUvarint(out, uint64(len(t.Slice)))
		out = append(out, t.Slice...)
	}
	if m.SkipMetricsGeneration {
		out = append(out, 1)
	}
	return out, nil
}

// Record is a Kafka record.
type Record struct {
	Key       []byte
	Value     []byte
	Partition int32
}

// maxPooledEntries bounds what goes back to the pool (not part of the bug).
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
	req.Traces = req.Traces[:0]
	req.Ids = req.Ids[:0]
	req.SkipMetricsGeneration = false
	encoderPool.Put(req) // want `noreset`
}

// Encode splits req into records of at most maxSize bytes.
func Encode(partitionID int32, tenantID string, req *PushBytesRequest, maxSize int) ([]*Record, error) {
	if req.Size() <= maxSize {
		rec, err := marshalWriteRequestToRecord(partitionID, tenantID, req)
		if err != nil {
			return nil, err
		}
		return []*Record{rec}, nil
	}

	var records []*Record
	batch := encoderPoolGet()
	defer encoderPoolPut(batch)

	currentSize := 0
	for i, entry := range req.Traces {
		entrySize := 8 + entry.Size() + len(req.Ids[i])
		if entrySize > maxSize {
			return nil, fmt.Errorf("single entry size (%d) exceeds maximum allowed size (%d)", entrySize, maxSize)
		}
		if currentSize+entrySize > maxSize {
			if len(batch.Traces) > 0 {
				rec, err := marshalWriteRequestToRecord(partitionID, tenantID, batch)
				if err != nil {
					return nil, err
				}
				records = append(records, rec)
			}
			batch.Traces = batch.Traces[:0]
			batch.Ids = batch.Ids[:0]
			currentSize = 0
		}
		batch.Traces = append(batch.Traces, entry)
		batch.Ids = append(batch.Ids, req.Ids[i])
		currentSize += entrySize
	}

	if len(batch.Traces) > 0 {
		rec, err := marshalWriteRequestToRecord(partitionID, tenantID, batch)
		if err != nil {
			return nil, err
		}
		records = append(records, rec)
	}
	if len(records) == 0 {
		return nil, errors.New("no valid records created")
	}
	return records, nil
}

func marshalWriteRequestToRecord(partitionID int32, tenantID string, req *PushBytesRequest) (*Record, error) {
	data, err := req.Marshal()
	if err != nil {
		return nil, fmt.Errorf("failed to marshal record: %w", err)
	}
	return &Record{Key: []byte(tenantID), Value: data, Partition: partitionID}, nil
}
