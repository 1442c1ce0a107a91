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
// Fixed twin: the WAL uses the bounded LimitedBytes pool, as the project
// did.
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

// LimitedBytes is a pool of byte slices that keeps at most cap(pool) buffers
// and drops buffers larger than maxSize.
type LimitedBytes struct {
	maxSize int
	pool    chan []byte
}

// NewLimitedBytes returns a LimitedBytes pool.
func NewLimitedBytes(capacity int, maxSize int) *LimitedBytes {
	return &LimitedBytes{
		pool:    make(chan []byte, capacity),
		maxSize: maxSize,
	}
}

// Get returns a byte slice of length sz.
func (p *LimitedBytes) Get(sz int) []byte {
	var c []byte
	select {
	case c = <-p.pool:
	default:
		return make([]byte, sz)
	}
	if cap(c) < sz {
		return make([]byte, sz)
	}
	return c[:sz]
}

// Put returns c to the pool unless it is larger than maxSize or the pool is
// full.
func (p *LimitedBytes) Put(c []byte) {
	if cap(c) >= p.maxSize {
		return
	}
	select {
	case p.pool <- c:
	default:
	}
}

// bytesPool is a shared bytes pool buffer re-cycle []byte slices to reduce allocations.
var bytesPool = NewLimitedBytes(256, walEncodeBufSize*2)

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
	bytes := bytesPool.Get(walEncodeBufSize)
	defer bytesPool.Put(bytes)

	b, err := entry.Encode(bytes)
	if err != nil {
		return -1, err
	}

	encBuf := bytesPool.Get(maxEncodedLen(len(b)))
	defer bytesPool.Put(encBuf)
	compressed := encode(encBuf, b)

	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.f.Write(compressed); err != nil {
		return -1, err
	}
	return len(compressed), nil
}
