// Package bug reproduces the shape of prometheus/prometheus#17802
// ("Agent: fix crash from invalid type in pool",
// https://github.com/prometheus/prometheus/pull/17802, commit f1719fa1d4):
// the agent DB keeps one sync.Pool of *appender and one of *appenderV2, both
// embedding appenderBase. Commit and Rollback were methods of appenderBase
// and put their receiver, a *appenderBase, into the appender pool. The next
// DB.Appender call could get a *appenderBase back and its assertion to the
// Appender interface panicked; a V2 appender's Commit also fed the V1 pool.
//
// Check: typemismatch (a value of a type the pool's New never returns is
// put into it; reported at both Puts).
package bug

import "sync"

type refSample struct {
	Ref uint64
	T   int64
	V   float64
}

// Appender is the V1 append interface.
type Appender interface {
	Append(ref uint64, t int64, v float64) (uint64, error)
	Commit() error
	Rollback() error
}

// AppenderV2 is the V2 append interface.
type AppenderV2 interface {
	Append(ref uint64, st, t int64, v float64) (uint64, error)
	Commit() error
	Rollback() error
}

// DB is the agent's write-ahead database.
type DB struct {
	mtx     sync.Mutex
	written int

	appenderPool   sync.Pool
	appenderV2Pool sync.Pool
}

func Open() *DB {
	db := &DB{}
	db.appenderPool.New = func() any {
		return &appender{
			appenderBase: appenderBase{
				DB:             db,
				pendingSamples: make([]refSample, 0, 100),
			},
		}
	}
	db.appenderV2Pool.New = func() any {
		return &appenderV2{
			appenderBase: appenderBase{
				DB:             db,
				pendingSamples: make([]refSample, 0, 100),
			},
		}
	}
	return db
}

// Appender returns a V1 appender from the pool.
func (db *DB) Appender() Appender {
	return db.appenderPool.Get().(Appender)
}

// AppenderV2 returns a V2 appender from the pool.
func (db *DB) AppenderV2() AppenderV2 {
	return db.appenderV2Pool.Get().(AppenderV2)
}

type appenderBase struct {
	*DB

	pendingSamples []refSample
}

type appender struct {
	appenderBase
}

func (a *appender) Append(ref uint64, t int64, v float64) (uint64, error) {
	a.pendingSamples = append(a.pendingSamples, refSample{Ref: ref, T: t, V: v})
	return ref, nil
}

type appenderV2 struct {
	appenderBase
}

func (a *appenderV2) Append(ref uint64, st, t int64, v float64) (uint64, error) {
	if st > t {
		st = t
	}
	a.pendingSamples = append(a.pendingSamples, refSample{Ref: ref, T: t, V: v})
	return ref, nil
}

func (a *appenderBase) log() error {
	a.mtx.Lock()
	a.written += len(a.pendingSamples)
	a.mtx.Unlock()
	return nil
}

func (a *appenderBase) clearData() {
	a.pendingSamples = a.pendingSamples[:0]
}

// Commit submits the collected samples and purges the batch.
func (a *appenderBase) Commit() error {
	if err := a.log(); err != nil {
		return err
	}

	a.clearData()
	a.appenderPool.Put(a) // want `typemismatch`
	return nil
}

// Rollback drops the collected samples.
func (a *appenderBase) Rollback() error {
	a.clearData()
	a.appenderPool.Put(a) // want `typemismatch`
	return nil
}
