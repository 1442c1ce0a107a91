// Source: https://github.com/erigontech/mdbx-go/pull/229
// (squashed as commit 03f9f60d13b73f617de5f3761cde843c6d5c7f83; see the
// sub-commits "CursorToPool clears the txn reference and drops closed
// cursors" and "CursorToPool unbinds so a pooled cursor cannot read via a
// stale binding").
//
// Bug: mdbx-go keeps a package-level sync.Pool of *Cursor (CursorFromPool /
// CursorToPool). CursorToPool put the cursor back exactly as its last user
// left it: still bound to that user's transaction, both on the Go side
// (c.txn, which pins the ended Txn object) and in libmdbx (the C cursor's
// binding). The next CursorFromPool caller got a cursor that could keep
// reading through the previous transaction's binding (a cross-txn /
// cross-goroutine hazard) and that reported the old Txn from Txn().
//
// Fix: CursorToPool tolerates nil/closed cursors, calls Unbind (which now
// also clears c.txn) before Put, and closes the cursor instead of pooling it
// if Unbind fails.
//
// The cgo calls into libmdbx are modelled by the small cCursor / cTxn types
// below so the package builds with the standard library only.
//
// Check: noreset (at the Put in CursorToPool: the cursor goes back to the
// pool still holding the txn reference and binding of its last user)
package fixed

import (
	"errors"
	"sync"
)

const (
	success = 0
	einval  = 22
)

// --- stand-ins for the libmdbx C objects ----------------------------------

type cTxn struct {
	data map[string][]byte
}

type cCursor struct {
	txn *cTxn
	dbi uint32
	pos int
}

func mdbx_cursor_create() *cCursor { return &cCursor{} }

func mdbx_cursor_bind(txn *cTxn, c *cCursor, dbi uint32) int {
	c.txn = txn
	c.dbi = dbi
	c.pos = 0
	return success
}

func mdbx_cursor_unbind(c *cCursor) int {
	c.txn = nil
	return success
}

func mdbx_cursor_close(c *cCursor) {
	c.txn = nil
}

func mdbx_cursor_get(c *cCursor, op uint) (key, val []byte, rc int) {
	if c == nil || c.txn == nil {
		return nil, nil, einval
	}
	for k, v := range c.txn.data {
		return []byte(k), v, success
	}
	return nil, nil, success
}

func operrno(op string, ret int) error {
	if ret == success {
		return nil
	}
	return errors.New(op + ": error")
}

// --- mdbx-go ---------------------------------------------------------------

type DBI uint32

const First = 0

// Txn is a database transaction.
type Txn struct {
	_txn     *cTxn
	readonly bool
}

// Cursor operates on data inside a transaction and holds a position in the
// database.
type Cursor struct {
	txn *Txn
	_c  *cCursor
}

// Bind associates the cursor with txn and db.
func (c *Cursor) Bind(txn *Txn, db DBI) error {
	ret := mdbx_cursor_bind(txn._txn, c._c, uint32(db))
	if ret != success {
		return operrno("mdbx_cursor_bind", ret)
	}
	c.txn = txn
	return nil
}

// Unbind disassociates the cursor from its transaction while keeping the
// original DBI handle internally, so it can later be renewed against another
// transaction (Renew/Bind) or closed. While unbound, Txn() reports nil.
func (c *Cursor) Unbind() error {
	ret := mdbx_cursor_unbind(c._c)
	if ret != success {
		return operrno("mdbx_cursor_unbind", ret)
	}
	c.txn = nil
	return nil
}

// Close the cursor handle.
func (c *Cursor) Close() {
	if c._c != nil {
		mdbx_cursor_close(c._c)
		c.txn = nil
		c._c = nil
	}
}

// Txn returns the cursor's transaction.
func (c *Cursor) Txn() *Txn {
	return c.txn
}

// Get retrieves items from the database.
func (c *Cursor) Get(setkey, setval []byte, op uint) (key, val []byte, err error) {
	k, v, rc := mdbx_cursor_get(c._c, op)
	if err := operrno("mdbx_cursor_get", rc); err != nil {
		return nil, nil, err
	}
	return k, v, nil
}

var cursorPool = sync.Pool{
	New: func() any {
		return CreateCursor()
	},
}

func CursorFromPool() *Cursor { return cursorPool.Get().(*Cursor) }

// CursorToPool returns c for reuse. Closed cursors are dropped (their handle
// is gone; Bind/Renew would always fail). The cursor's Go txn reference is
// cleared so a pooled cursor cannot operate on — or keep alive — an ended
// transaction; callers must Bind/Renew before use.
func CursorToPool(c *Cursor) {
	if c == nil || c._c == nil {
		// Tolerate a nil or already-closed cursor, like sync.Pool.Put(nil).
		return
	}
	// Unbind before pooling: Get no longer checks c.txn, so a pooled cursor
	// must also be unbound in libmdbx or it could keep reading through its
	// previous C binding (cross-txn/cross-goroutine misuse). If it fails the
	// cursor is unusable, so close it rather than pool a broken handle.
	if err := c.Unbind(); err != nil {
		c.Close()
		return
	}
	cursorPool.Put(c)
}

func CreateCursor() *Cursor {
	c := &Cursor{_c: mdbx_cursor_create()}
	if c._c == nil {
		panic(errors.New("mdbx.CreateCursor: OOM"))
	}
	return c
}

// firstValue is a typical caller: borrow a cursor, bind it, read, return it.
func firstValue(txn *Txn, db DBI) ([]byte, error) {
	c := CursorFromPool()
	defer CursorToPool(c)
	if err := c.Bind(txn, db); err != nil {
		return nil, err
	}
	_, v, err := c.Get(nil, nil, First)
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), v...), nil
}
