// Package fixed is the fixed twin of prometheus/prometheus#17802
// (https://github.com/prometheus/prometheus/pull/17802, commit f1719fa1d4).
// The project's fix: appenderBase keeps unexported commit/rollback helpers,
// and each concrete appender type has its own Commit and Rollback that put
// the concrete value back into its own pool with a deferred Put.
package fixed

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

func (a *appender) Commit() error {
	defer a.appenderPool.Put(a)
	return a.commit()
}

func (a *appender) Rollback() error {
	defer a.appenderPool.Put(a)
	return a.rollback()
}

func (a *appenderV2) Commit() error {
	defer a.appenderV2Pool.Put(a)
	return a.commit()
}

func (a *appenderV2) Rollback() error {
	defer a.appenderV2Pool.Put(a)
	return a.rollback()
}

// commit submits the collected samples and purges the batch.
func (a *appenderBase) commit() error {
	if err := a.log(); err != nil {
		return err
	}

	a.clearData()
	return nil
}

// rollback drops the collected samples.
func (a *appenderBase) rollback() error {
	a.clearData()
	return nil
}
