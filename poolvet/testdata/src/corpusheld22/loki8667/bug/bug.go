// Package bug reproduces the shape of grafana/loki#8667
// (https://github.com/grafana/loki/pull/8667, "WAL: store pointers in record
// pool"): the ingester's ResettingPool keeps WAL encoding buffers in a
// sync.Pool as bare []byte. PutBytes hands the truncated slice header to
// bPool.Put (with a nolint:staticcheck to silence SA6002), so every
// walWrapper.Log boxes a fresh slice header on the heap.
// Check: nonpointer (the Put inside ResettingPool.PutBytes).
package bug

import (
	"encoding/binary"
	"sync"
)

// maxPooledRecordBuf keeps a single huge record from pinning its buffer.
const maxPooledRecordBuf = 1 << 20

type RefEntries struct {
	Ref     uint64
	Entries []string
}

type Record struct {
	UserID     string
	Series     []string
	RefEntries []RefEntries
}

func (r *Record) EncodeSeries(buf []byte) []byte {
	buf = append(buf, 1)
	buf = append(buf, r.UserID...)
	for _, s := range r.Series {
		buf = binary.AppendUvarint(buf, uint64(len(s)))
		buf = append(buf, s...)
	}
	return buf
}

func (r *Record) EncodeEntries(version byte, buf []byte) []byte {
	buf = append(buf, version)
	for _, ref := range r.RefEntries {
		buf = binary.BigEndian.AppendUint64(buf, ref.Ref)
		for _, e := range ref.Entries {
			buf = binary.AppendUvarint(buf, uint64(len(e)))
			buf = append(buf, e...)
		}
	}
	return buf
}

const CurrentEntriesRec byte = 3

type ResettingPool struct {
	bPool *sync.Pool // bytes
}

func NewRecordPool() *ResettingPool {
	return &ResettingPool{
		bPool: &sync.Pool{
			New: func() interface{} {
				return make([]byte, 0, 1<<10) // 1kb
			},
		},
	}
}

func (p *ResettingPool) GetBytes() []byte {
	return p.bPool.Get().([]byte)
}

func (p *ResettingPool) PutBytes(b []byte) {
	if cap(b) > maxPooledRecordBuf {
		return
	}
	p.bPool.Put(b[:0]) // nolint:staticcheck // want `nonpointer`
}

var recordPool = NewRecordPool()

type WAL interface {
	Log(recs ...[]byte) error
}

type walWrapper struct {
	wal    WAL
	quit   chan struct{}
	logged float64
}

func (w *walWrapper) Log(record *Record) error {
	if record == nil || (len(record.Series) == 0 && len(record.RefEntries) == 0) {
		return nil
	}
	select {
	case <-w.quit:
		return nil
	default:
		buf := recordPool.GetBytes()[:0]
		defer func() {
			recordPool.PutBytes(buf)
		}()

		// Always write series then entries.
		if len(record.Series) > 0 {
			buf = record.EncodeSeries(buf)
			if err := w.wal.Log(buf); err != nil {
				return err
			}
			w.logged += float64(len(buf))
			buf = buf[:0]
		}
		if len(record.RefEntries) > 0 {
			buf = record.EncodeEntries(CurrentEntriesRec, buf)
			if err := w.wal.Log(buf); err != nil {
				return err
			}
			w.logged += float64(len(buf))
		}
		return nil
	}
}
