// Source: https://github.com/rana/ora/pull/97
// Commit: https://github.com/rana/ora/commit/68dc150a7113863fd94c3e5cb042d25cd507cb43
// ("Reset autoclose flag after getting from pool.").
//
// Bug: *Rset result sets are recycled through the driver's own list-based
// pool (_drv.rsetPool). Rset.close() clears stmt, ocistmt, defs, Index,
// Row and ColumnNames before the deferred Put, but not autoClose. An Rset
// returned by Ses.PrepAndQry has autoClose = true; once it is recycled,
// defRset.define takes it from the pool for a nested (cursor) result set
// and it still has autoClose set, so the first nested Rset that reaches
// its end closes the parent statement.
// Fix: defRset.define sets result.autoClose = false right after getting
// the Rset from the pool.
//
// Check: noreset (at the Put in Rset.close's deferred func, which recycles
// the Rset with the previous user's autoClose flag still set)
package bug

import (
	"container/list"
	"errors"
	"io"
	"sync"
)

// prefer simple pool instead of sync.Pool to control lifetime of instances
type pool struct {
	l       *list.List
	mu      sync.Mutex
	genItem func() interface{}
}

func newPool(genItem func() interface{}) *pool {
	p := &pool{}
	p.l = list.New()
	p.genItem = genItem
	return p
}

func (p *pool) Get() interface{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.l.Len() > 0 {
		return p.l.Remove(p.l.Front())
	}
	return p.genItem()
}

func (p *pool) Put(v interface{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.l.PushFront(v)
}

type ociStmt struct{ handle uintptr }

type drv struct {
	rsetPool *pool
	rsetID   uint64
}

var _drv = &drv{
	rsetPool: newPool(func() interface{} { return &Rset{genByPool: true} }),
}

type def interface {
	value(offset int) (interface{}, error)
	close() error
}

type Stmt struct {
	closed    bool
	openRsets map[*Rset]struct{}
}

func (stmt *Stmt) Close() error {
	for rset := range stmt.openRsets {
		rset.close()
	}
	stmt.openRsets = nil
	stmt.closed = true
	return nil
}

// Rset represents a result set used to obtain Go values from a SQL select
// statement.
type Rset struct {
	id        uint64
	stmt      *Stmt
	ocistmt   *ociStmt
	defs      []def
	autoClose bool
	genByPool bool

	Row         []interface{}
	ColumnNames []string
	Index       int
	Err         error
	finished    bool
}

func (rset *Rset) IsOpen() bool {
	return rset.stmt != nil
}

// close releases allocated resources.
func (rset *Rset) close() (err error) {
	defer func() {
		if value := recover(); value != nil {
			err = errors.New("recovered")
		}
		if rset.genByPool { // recycle pool-generated Rset; don't recycle user-specfied Rset
			_drv.rsetPool.Put(rset) // want `noreset`
		}
	}()
	if !rset.IsOpen() {
		return errors.New("Rset is closed.")
	}
	for _, def := range rset.defs {
		if def != nil {
			if err0 := def.close(); err0 != nil && err == nil {
				err = err0
			}
		}
	}
	rset.stmt = nil
	rset.ocistmt = nil
	rset.defs = nil
	rset.Index = -1
	rset.Row = nil
	rset.ColumnNames = nil
	return err
}

// Next attempts to load a row of data.
func (rset *Rset) Next() bool {
	if !rset.IsOpen() {
		rset.Err = errors.New("Rset is closed.")
		rset.Row = nil
		if rset.autoClose {
			rset.stmt.Close()
		}
		return false
	}
	if rset.finished {
		rset.Err = nil
		rset.Row = nil
		if rset.autoClose {
			rset.stmt.Close()
		}
		return false
	}
	for n, define := range rset.defs {
		value, err := define.value(rset.Index)
		if err != nil && err != io.EOF {
			rset.Err = err
			rset.Row = nil
			if rset.autoClose {
				rset.stmt.Close()
			}
			return false
		}
		rset.Row[n] = value
	}
	return true
}

// PrepAndQry prepares a statement and queries it; the returned Rset closes
// its statement when exhausted.
func PrepAndQry(stmt *Stmt) *Rset {
	rset := _drv.rsetPool.Get().(*Rset)
	rset.stmt = stmt
	rset.autoClose = true
	return rset
}

// defRset defines a nested result set (cursor) column.
type defRset struct {
	rset    *Rset
	ocistmt []*ociStmt
	result  []*Rset
}

func (def *defRset) define(position int, rset *Rset, fetchLen int) error {
	def.rset = rset
	def.ocistmt = make([]*ociStmt, fetchLen)
	def.result = make([]*Rset, len(def.ocistmt))

	// create result set
	for i := range def.result {
		result := _drv.rsetPool.Get().(*Rset)
		if result.id == 0 {
			_drv.rsetID++
			result.id = _drv.rsetID
		}
		result.stmt = rset.stmt
		result.ocistmt = rset.ocistmt
		def.result[i] = result
		def.ocistmt[i] = &ociStmt{}
	}
	return nil
}
