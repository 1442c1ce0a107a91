// Package bug reproduces the shape of influxdata/influxdb commit 503d41a08f
// (https://github.com/influxdata/influxdb/commit/503d41a08fc4269f1d58956086ba31b1257d3abd,
// "Add LimitedBytePool for wal buffers"): the TSM WAL encoded and compressed
// every entry into scratch buffers from a package sync.Pool (getBuf/putBuf).
// getBuf hands out a bigger buffer whenever the pooled one is too small, and
// putBuf puts back whatever it is given, so one huge write batch (and its
// snappy-sized compression buffer) leaves buffers of that size circulating in
// the pool for every later small write. The fix moved the WAL to a pool that
// bounds both the number of buffers and the size of each buffer it keeps.
//
// Check: unbounded (reported at the Put in putBuf: a buffer that may have been
// sized for an arbitrarily large entry goes back with no size check).
package bug

import (
	"encoding/binary"
	"os"
	"sync"
)

const walEncodeBufSize = 4 * 1024 * 1024

var bufPool sync.Pool

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
	bufPool.Put(buf) // want `unbounded`
}

// WALEntry is one write batch.
type WALEntry struct {
	Values map[string][]float64
}

// Encode appends the entry to dst (growing it as needed) and returns it.
func (w *WALEntry) Encode(dst []byte) ([]byte, error) {
	dst = dst[:0]
	var tmp [8]byte
	for key, vals := range w.Values {
		binary.BigEndian.PutUint32(tmp[:4], uint32(len(key)))
		dst = append(dst, tmp[:4]...)
		dst = append(dst, key...)
		for _, v := range vals {
			binary.BigEndian.PutUint64(tmp[:], uint64(v))
			dst = append(dst, tmp[:]...)
		}
	}
	return dst, nil
}

func maxEncodedLen(n int) int { return 32 + n + n/6 }

// encode is a stand-in for snappy.Encode: it copies src into dst.
func encode(dst, src []byte) []byte {
	n := copy(dst, src)
	return dst[:n]
}

// WAL is the write-ahead log.
type WAL struct {
	mu sync.Mutex
	f  *os.File
}

func (l *WAL) writeToLog(entry *WALEntry) (int, error) {
	// encode and compress the entry while we're not locked
	bytes := *(getBuf(walEncodeBufSize))
	defer putBuf(&bytes)

	b, err := entry.Encode(bytes)
	if err != nil {
		return -1, err
	}

	encBuf := *(getBuf(maxEncodedLen(len(b))))
	defer putBuf(&encBuf)
	compressed := encode(encBuf, b)

	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(compressed); err != nil {
		return -1, err
	}
	return len(compressed), nil
}
