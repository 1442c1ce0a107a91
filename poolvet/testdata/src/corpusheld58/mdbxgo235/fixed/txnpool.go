// Source: https://github.com/erigontech/mdbx-go/pull/235
// (commit 8a737c23c096c9ebbef725236c4496000c34e003, sub-commit
// "mdbxpool: abort instead of pooling a Txn whose Reset failed").
//
// Bug: mdbxpool.TxnPool recycles read-only transactions through a
// sync.Pool. When a transaction is returned (abortReadonly) it is Reset and
// Put into the pool. Txn.Reset discarded the mdbx_txn_reset result, so when
// the reset failed (e.g. EINVAL for a transaction that is not read-only, or
// one that is already finished) the Txn went into the pool still being a live
// reader holding its MVCC snapshot: the pooled object kept the state of its
// last user, pinning the snapshot while idle, and the next beginReadonly got
// a transaction that had never been reset.
//
// Fix: Txn.Reset returns the mdbx_txn_reset error; abortReadonly aborts the
// Txn instead of pooling it when Reset fails.
//
// The cgo calls into libmdbx are modelled by the small cTxn type below so the
// package builds with the standard library only.
//
// Check: noreset (at p.pool.Put in abortReadonly: the Txn is pooled even when
// its Reset failed, i.e. while it is still a live reader)
package fixed

import (
	"errors"
	"sync"
	"sync/atomic"
)

const (
	success = 0
	einval  = 22
)

// --- stand-ins for the libmdbx C objects ----------------------------------

type cTxn struct {
	readonly bool
	id       uint64
	snapshot []byte // pages pinned while the reader is live
	finished bool
}

func mdbx_txn_reset(t *cTxn) int {
	if t == nil || !t.readonly || t.finished {
		return einval
	}
	t.snapshot = nil
	return success
}

func mdbx_txn_renew(t *cTxn) int {
	if t == nil || t.finished {
		return einval
	}
	return success
}

func mdbx_txn_abort(t *cTxn) int {
	t.finished = true
	t.snapshot = nil
	return success
}

func operrno(op string, ret int) error {
	if ret == success {
		return nil
	}
	return errors.New(op + ": error")
}

// --- mdbx.Txn ----------------------------------------------------------------

const Readonly = 0x20000

// Txn is a database transaction.
type Txn struct {
	// Pooled may be set to true while a Txn is stored in a sync.Pool, after
	// Txn.Reset reset has been called and before Txn.Renew.
	Pooled bool

	managed bool
	id      uint64
	_txn    *cTxn
}

// ID returns the identifier for txn.
func (txn *Txn) ID() uint64 {
	if txn.id == 0 && txn._txn != nil {
		txn.id = txn._txn.id
	}
	return txn.id
}

func (txn *Txn) resetID() { txn.id = 0 }

// Abort discards pending writes in the transaction and clears txn.
func (txn *Txn) Abort() {
	if txn._txn == nil {
		return
	}
	mdbx_txn_abort(txn._txn)
	txn._txn = nil
}

// Reset aborts the transaction clears internal state so the transaction may
// be reused by calling Renew.  If txn is not going to be reused txn.Abort()
// must be called to release its slot in the lock table and free its memory.
// Reset panics if txn is managed by Update, View, etc.
//
// Reset returns the error reported by mdbx_txn_reset, e.g. EINVAL on POSIX
// when txn is not read-only.
//
// See mdbx_txn_reset.
func (txn *Txn) Reset() error {
	if txn.managed {
		panic("managed transaction cannot be reset directly")
	}

	return txn.reset()
}

func (txn *Txn) reset() error {
	ret := mdbx_txn_reset(txn._txn)
	txn.resetID()
	return operrno("mdbx_txn_reset", ret)
}

// Renew reuses a transaction that was previously reset by calling txn.Reset().
func (txn *Txn) Renew() error {
	if txn.managed {
		panic("managed transaction cannot be renewed directly")
	}
	return operrno("mdbx_txn_renew", mdbx_txn_renew(txn._txn))
}

// Env is a database environment.
type Env struct{ lastID uint64 }

// BeginTxn starts a new transaction.
func (env *Env) BeginTxn(parent *Txn, flags uint) (*Txn, error) {
	id := atomic.AddUint64(&env.lastID, 1)
	return &Txn{_txn: &cTxn{readonly: flags&Readonly != 0, id: id, snapshot: make([]byte, 4096)}}, nil
}

// --- mdbxpool ------------------------------------------------------------------

// UpdateHandling describes how a TxnPool handles existing Readonly
// transactions when an environment update occurs.
type UpdateHandling uint

const (
	HandleOutstanding UpdateHandling = 1 << iota
	HandleIdle
	HandleRenew
	HandleAll = HandleOutstanding | HandleIdle
)

var returnTxnToPool = true

// TxnPool is a pool for reusing transactions through their Reset and Renew
// methods.
type TxnPool struct {
	env            *Env
	pool           sync.Pool
	UpdateHandling UpdateHandling

	lastid uint64
}

// NewTxnPool initializes returns a new TxnPool.
func NewTxnPool(env *Env) *TxnPool {
	return &TxnPool{env: env}
}

// BeginTxn may only be used to create Readonly transactions.
func (p *TxnPool) BeginTxn(flags uint) (*Txn, error) {
	if flags != Readonly {
		return nil, errors.New("flag mdbx.Readonly not provided")
	}
	return p.beginReadonly()
}

func (p *TxnPool) beginReadonly() (*Txn, error) {
	txn, ok := p.pool.Get().(*Txn)
	if !ok {
		return p.env.BeginTxn(nil, Readonly)
	}

	err := txn.Renew()
	if err != nil {
		// Nothing we can do with txn now other than destroy it.
		txn.Abort()
		return p.env.BeginTxn(nil, Readonly)
	}

	// Clear txn.Pooled so the Txn appears like it was just allocated.
	txn.Pooled = false

	return txn, nil
}

// Abort aborts the txn and allows it to be reused if possible.
func (p *TxnPool) Abort(txn *Txn) {
	p.abortReadonly(txn)
}

func (p *TxnPool) abortReadonly(txn *Txn) {
	if !returnTxnToPool {
		txn.Abort()
		return
	}

	if p.handlesUpdates() && txn.ID() < p.getLastID() {
		ok, err := p.handleReadonly(txn, HandleOutstanding)
		if err != nil {
			return
		}
		if !ok {
			return
		}
	}

	// A Txn that failed to reset is still a live reader; pooling it would
	// pin its MVCC snapshot indefinitely while idle.
	if err := txn.Reset(); err != nil {
		txn.Abort()
		return
	}
	txn.Pooled = true
	p.pool.Put(txn)
}

func (p *TxnPool) handleReadonly(txn *Txn, condition UpdateHandling) (renewed bool, err error) {
	if p.UpdateHandling&condition == 0 {
		return
	}

	if p.UpdateHandling&HandleRenew != 0 {
		err = txn.Renew()
		if err != nil {
			txn.Abort()
		}
		return true, err
	}
	txn.Abort()
	return false, nil
}

func (p *TxnPool) getLastID() uint64 {
	return atomic.LoadUint64(&p.lastid)
}

func (p *TxnPool) handlesUpdates() bool {
	return p.UpdateHandling&HandleAll != 0
}
