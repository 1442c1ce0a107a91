// Package bug reproduces the shape of influxdata/influxdb#9580
// (https://github.com/influxdata/influxdb/pull/9580): the TSM WAL segment
// reader decodes each entry into a []byte taken from a sync.Pool
// (getBuf/putBuf, returned with defer at the end of Next). Delete entries
// unmarshalled their series keys as sub-slices of that buffer and the entry
// was kept in r.entry for the caller to Read after Next returned, i.e. after
// the deferred putBuf had already handed the buffer back. Later WAL entries
// decoded into the same pooled buffer overwrote the keys that were queued
// for deletion. The fix copies the bytes that the entry retains.
// Check: useafterput (the pooled data is stored into r.entry, which outlives
// the deferred putBuf; reported at the UnmarshalBinary call that stores it).
package bug

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

var bufPool sync.Pool

const maxPooledBufSize = 1 << 20

// getBuf returns a buffer with length size from the buffer pool.
func getBuf(size int) *[]byte {
	x := bufPool.Get()
	if x == nil {
		b := make([]byte, size)
		return &b
	}
	buf := x.(*[]byte)
	if cap(*buf) < size {
		b := make([]byte, size)
		return &b
	}
	*buf = (*buf)[:size]
	return buf
}

// putBuf returns a buffer to the pool.
func putBuf(buf *[]byte) {
	if cap(*buf) > maxPooledBufSize {
		return
	}
	bufPool.Put(buf)
}

// WalEntryType is the type of a WAL entry.
type WalEntryType byte

const (
	DeleteWALEntryType      WalEntryType = 0x02
	DeleteRangeWALEntryType WalEntryType = 0x03
)

// WALEntry is a decoded WAL record.
type WALEntry interface {
	UnmarshalBinary(b []byte) error
}

// DeleteWALEntry deletes series keys.
type DeleteWALEntry struct {
	Keys [][]byte
}

// UnmarshalBinary deserializes b into w.
func (w *DeleteWALEntry) UnmarshalBinary(b []byte) error {
	w.Keys = bytes.Split(b, []byte("\n"))
	return nil
}

// DeleteRangeWALEntry deletes a time range for series keys.
type DeleteRangeWALEntry struct {
	Keys     [][]byte
	Min, Max int64
}

// UnmarshalBinary deserializes b into w.
func (w *DeleteRangeWALEntry) UnmarshalBinary(b []byte) error {
	if len(b) < 16 {
		return errors.New("corrupt wal entry")
	}
	w.Min = int64(binary.BigEndian.Uint64(b[:8]))
	w.Max = int64(binary.BigEndian.Uint64(b[8:16]))
	i := 16
	for i < len(b) {
		if i+4 > len(b) {
			return errors.New("corrupt wal entry")
		}
		sz := int(binary.BigEndian.Uint32(b[i : i+4]))
		i += 4
		if i+sz > len(b) {
			return errors.New("corrupt wal entry")
		}
		w.Keys = append(w.Keys, b[i:i+sz])
		i += sz
	}
	return nil
}

// WALSegmentReader reads WAL entries one at a time.
type WALSegmentReader struct {
	r     *bufio.Reader
	entry WALEntry
	n     int64
	err   error
}

// NewWALSegmentReader returns a reader over r.
func NewWALSegmentReader(r io.Reader) *WALSegmentReader {
	return &WALSegmentReader{r: bufio.NewReader(r)}
}

// Next decodes the next entry.
func (r *WALSegmentReader) Next() bool {
	var nReadOK int

	var lv [5]byte
	n, err := io.ReadFull(r.r, lv[:])
	if err == io.EOF {
		return false
	}
	if err != nil {
		r.err = err
		return true
	}
	nReadOK += n

	entryType := lv[0]
	length := binary.BigEndian.Uint32(lv[1:5])

	data := *(getBuf(int(length)))
	defer putBuf(&data)

	n, err = io.ReadFull(r.r, data[:length])
	if err != nil {
		r.err = err
		return true
	}
	nReadOK += n

	switch WalEntryType(entryType) {
	case DeleteWALEntryType:
		r.entry = &DeleteWALEntry{}
	case DeleteRangeWALEntryType:
		r.entry = &DeleteRangeWALEntry{}
	default:
		r.err = errors.New("unknown wal entry type")
		return true
	}
	r.err = r.entry.UnmarshalBinary(data[:length]) // want `useafterput`
	if r.err == nil {
		r.n += int64(nReadOK)
	}
	return true
}

// Read returns the entry decoded by the last Next.
func (r *WALSegmentReader) Read() (WALEntry, error) {
	if r.err != nil {
		return nil, r.err
	}
	return r.entry, nil
}

// CollectDeletes replays a segment and gathers the keys to delete, the way
// the engine queues them for later processing.
func CollectDeletes(seg io.Reader) ([][]byte, error) {
	r := NewWALSegmentReader(seg)
	var keys [][]byte
	for r.Next() {
		entry, err := r.Read()
		if err != nil {
			return nil, err
		}
		switch en := entry.(type) {
		case *DeleteWALEntry:
			keys = append(keys, en.Keys...)
		case *DeleteRangeWALEntry:
			keys = append(keys, en.Keys...)
		}
	}
	return keys, nil
}
