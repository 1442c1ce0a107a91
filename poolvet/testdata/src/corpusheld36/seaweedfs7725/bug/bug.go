// Package bug reproduces the shape of seaweedfs/seaweedfs#7725
// (https://github.com/seaweedfs/seaweedfs/pull/7725, review fix commit
// https://github.com/seaweedfs/seaweedfs/commit/9d56ada0e851037fff16ce891033671ed4ed0a37):
// the log buffer's readTs, used by the binary search over buffered log
// entries, decodes each entry into a LogEntry taken from a sync.Pool. The
// success path clears the entry before putting it back, but the path taken
// when the entry fails to decode puts it back as it is, still holding the
// fields (and the Data/Key slices into the log buffer) that the partial decode
// had already filled in. The fix resets the entry on that path too.
//
// Check: noreset (Put on the unmarshal-error path without resetLogEntry).
package bug

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// LogEntry stands in for filer_pb.LogEntry.
type LogEntry struct {
	TsNs             int64
	PartitionKeyHash int32
	Data             []byte
	Key              []byte
	Offset           int64
}

// unmarshal fills e field by field, the way a generated decoder does; on a
// truncated record it stops with the fields decoded so far still set.
func unmarshal(b []byte, e *LogEntry) error {
	if len(b) < 8 {
		return errors.New("truncated ts")
	}
	e.TsNs = int64(binary.BigEndian.Uint64(b))
	b = b[8:]
	if len(b) < 4 {
		return errors.New("truncated hash")
	}
	e.PartitionKeyHash = int32(binary.BigEndian.Uint32(b))
	b = b[4:]
	if len(b) < 4 {
		return errors.New("truncated data length")
	}
	n := int(binary.BigEndian.Uint32(b))
	b = b[4:]
	if n > len(b) {
		return errors.New("truncated data")
	}
	e.Data = b[:n]
	b = b[n:]
	if len(b) < 4 {
		return errors.New("truncated key length")
	}
	k := int(binary.BigEndian.Uint32(b))
	b = b[4:]
	if k > len(b) {
		return errors.New("truncated key")
	}
	e.Key = b[:k]
	return nil
}

// logEntryPool reduces allocations in readTs, which the binary search calls
// for every probe.
var logEntryPool = sync.Pool{
	New: func() interface{} {
		return &LogEntry{}
	},
}

func resetLogEntry(e *LogEntry) {
	*e = LogEntry{}
}

func readTs(buf []byte, pos int) (size int, ts int64, err error) {
	if pos < 0 || pos > len(buf)-4 {
		return 0, 0, fmt.Errorf("corrupted log buffer: cannot read size at pos %d, buffer length %d", pos, len(buf))
	}

	size = int(binary.BigEndian.Uint32(buf[pos : pos+4]))
	if size < 0 || size > len(buf)-pos-4 {
		return 0, 0, fmt.Errorf("corrupted log buffer: entry size %d at pos %d exceeds buffer length %d", size, pos, len(buf))
	}

	entryData := buf[pos+4 : pos+4+size]

	logEntry := logEntryPool.Get().(*LogEntry)
	resetLogEntry(logEntry)

	err = unmarshal(entryData, logEntry)
	if err != nil {
		logEntryPool.Put(logEntry) // want `noreset`
		// let the caller deal with the corruption
		return 0, 0, fmt.Errorf("corrupted log buffer: failed to unmarshal LogEntry at pos %d, size %d: %w", pos, size, err)
	}

	ts = logEntry.TsNs
	resetLogEntry(logEntry) // clear before returning to pool
	logEntryPool.Put(logEntry)
	return size, ts, nil
}

// findTs is the binary search over the entry index that drives readTs.
func findTs(buf []byte, idx []int, lastReadTs int64) (int, error) {
	l, h := 0, len(idx)-1
	for l <= h {
		mid := (l + h) / 2
		pos := idx[mid]
		_, t, err := readTs(buf, pos)
		if err != nil {
			return -1, err
		}
		if lastReadTs < t {
			h = mid - 1
		} else {
			l = mid + 1
		}
	}
	return l, nil
}
