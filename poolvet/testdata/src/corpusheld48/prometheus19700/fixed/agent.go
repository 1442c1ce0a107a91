// Source: https://github.com/prometheus/prometheus/issues/19699
// Fix:    https://github.com/prometheus/prometheus/pull/19700
//
// Prometheus agent mode (tsdb/agent, also carried by Grafana Alloy): the
// appender's log() takes a []byte from the DB-wide bufPool and hands it back
// in a deferred closure, but only truncates it (buf = buf[:0]) after a
// successful wal.Log(). Every error return puts a buffer that still holds
// the encoded record. record.Encoder appends to the buffer it is given, so
// the next commit encodes its record after the failed one and wal.Log()
// checksums the concatenation as one valid (but undecodable) record: the
// WAL is corrupted. logSeries() has the same shape.
//
// Fixed by putting buf[:0] in both deferred closures, so the pool always
// receives an empty buffer on every path.
//
// The pool stores bare []byte values (//nolint:staticcheck upstream); that
// is the same before and after the fix and is not the bug of this case.
package fixed

import (
	"encoding/binary"
	"sync"
)

type RefSeries struct {
	Ref    uint64
	Labels []string
}

type RefSample struct {
	Ref uint64
	T   int64
	V   float64
}

// Encoder mirrors record.Encoder: it appends to the buffer it is given.
type Encoder struct{}

func (e *Encoder) Series(series []RefSeries, b []byte) []byte {
	b = append(b, 1)
	for _, s := range series {
		b = binary.BigEndian.AppendUint64(b, s.Ref)
		b = binary.AppendUvarint(b, uint64(len(s.Labels)))
		for _, l := range s.Labels {
			b = binary.AppendUvarint(b, uint64(len(l)))
			b = append(b, l...)
		}
	}
	return b
}

func (e *Encoder) Samples(samples []RefSample, b []byte) []byte {
	b = append(b, 2)
	for _, s := range samples {
		b = binary.BigEndian.AppendUint64(b, s.Ref)
		b = binary.BigEndian.AppendUint64(b, uint64(s.T))
		b = binary.BigEndian.AppendUint64(b, uint64(s.V))
	}
	return b
}

type WAL interface {
	Log(recs ...[]byte) error
}

type memSeries struct {
	ref    uint64
	lastTs int64
	sync.Mutex
}

func (m *memSeries) updateTimestamp(newTs int64) bool {
	m.Lock()
	defer m.Unlock()
	if newTs >= m.lastTs {
		m.lastTs = newTs
		return true
	}
	return false
}

type DB struct {
	mtx     sync.RWMutex
	wal     WAL
	bufPool sync.Pool
}

func NewDB(w WAL) *DB {
	db := &DB{wal: w}
	db.bufPool.New = func() any {
		return make([]byte, 0, 1024)
	}
	return db
}

type appenderBase struct {
	*DB

	pendingSeries  []RefSeries
	pendingSamples []RefSample
	sampleSeries   []*memSeries

	outOfOrder int
}

// log logs all pending data to the WAL.
func (a *appenderBase) log() error {
	a.mtx.RLock()
	defer a.mtx.RUnlock()

	var encoder Encoder
	buf := a.bufPool.Get().([]byte)
	defer func() {
		a.bufPool.Put(buf[:0]) //nolint:staticcheck
	}()

	if len(a.pendingSeries) > 0 {
		buf = encoder.Series(a.pendingSeries, buf)
		if err := a.wal.Log(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}

	if len(a.pendingSamples) > 0 {
		buf = encoder.Samples(a.pendingSamples, buf)
		if err := a.wal.Log(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}

	var series *memSeries
	for i, s := range a.pendingSamples {
		series = a.sampleSeries[i]
		if !series.updateTimestamp(s.T) {
			a.outOfOrder++
		}
	}

	return nil
}

// logSeries logs only pending series records to the WAL.
func (a *appenderBase) logSeries() error {
	a.mtx.RLock()
	defer a.mtx.RUnlock()

	if len(a.pendingSeries) > 0 {
		buf := a.bufPool.Get().([]byte)
		defer func() {
			a.bufPool.Put(buf[:0]) //nolint:staticcheck
		}()

		var encoder Encoder
		buf = encoder.Series(a.pendingSeries, buf)
		if err := a.wal.Log(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}

	return nil
}

func (a *appenderBase) clearData() {
	a.pendingSeries = a.pendingSeries[:0]
	a.pendingSamples = a.pendingSamples[:0]
	a.sampleSeries = a.sampleSeries[:0]
}

func (a *appenderBase) commit() error {
	if err := a.log(); err != nil {
		return err
	}
	a.clearData()
	return nil
}

func (a *appenderBase) rollback() error {
	if err := a.logSeries(); err != nil {
		return err
	}
	a.clearData()
	return nil
}
