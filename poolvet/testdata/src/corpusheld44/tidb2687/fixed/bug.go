// Package bug reproduces the shape of pingcap/tidb#2687
// (https://github.com/pingcap/tidb/pull/2687, review by coocood): restricted
// (internal) SQL is executed on a special session taken from sysSessionPool, a
// sync.Pool, and the session is given back with a deferred Put. The first
// version returned the statement's RecordSet to the caller, but the RecordSet
// still reads the session (its variables and transaction) while the caller
// iterates it, after the session went back to the pool and may be handed to
// another internal query. The review asked to fetch all rows first and return
// the rows instead of the RecordSet.
// Check: useafterput (RecordSet bound to the pooled session returned after the
// deferred Put), reported at the return that leaks it.
// Fixed twin: all rows are drained and the RecordSet closed while the session
// is still owned; only the rows are returned.
package bug

import (
	"errors"
	"strings"
	"sync"
)

type Row struct {
	Data []string
}

type SessionVars struct {
	Autocommit         bool
	CommonGlobalLoaded bool
	InRestrictedSQL    bool
	StmtCtx            *StatementContext
}

type StatementContext struct {
	AffectedRows uint64
	Warnings     []error
}

type store interface {
	Scan(table string) ([][]string, error)
}

type session struct {
	store       store
	sessionVars *SessionVars
}

var sysSessionPool = sync.Pool{}

func createSession(st store) (*session, error) {
	if st == nil {
		return nil, errors.New("no store")
	}
	return &session{store: st, sessionVars: &SessionVars{}}, nil
}

// RecordSet is the iterator over a statement's result. It keeps using the
// session it was executed on.
type RecordSet interface {
	Next() (*Row, error)
	Close() error
}

type recordSet struct {
	se   *session
	rows [][]string
	pos  int
}

func (rs *recordSet) Next() (*Row, error) {
	if rs.se.sessionVars.StmtCtx == nil {
		return nil, errors.New("statement context is gone")
	}
	if rs.pos >= len(rs.rows) {
		return nil, nil
	}
	r := &Row{Data: rs.rows[rs.pos]}
	rs.pos++
	rs.se.sessionVars.StmtCtx.AffectedRows++
	return r, nil
}

func (rs *recordSet) Close() error {
	rs.se.sessionVars.StmtCtx = nil
	return nil
}

func (s *session) compileAndExec(se *session, sql string) (RecordSet, error) {
	table := strings.TrimSpace(strings.TrimPrefix(sql, "SELECT * FROM"))
	se.sessionVars.StmtCtx = &StatementContext{}
	rows, err := se.store.Scan(table)
	if err != nil {
		return nil, err
	}
	return &recordSet{se: se, rows: rows}, nil
}

// ExecRestrictedSQL implements the RestrictedSQLExecutor interface.
func (s *session) ExecRestrictedSQL(sql string) ([]*Row, error) {
	var se *session
	if v := sysSessionPool.Get(); v != nil {
		se = v.(*session)
	} else {
		var err error
		se, err = createSession(s.store)
		if err != nil {
			return nil, err
		}
		se.sessionVars.Autocommit = true
		se.sessionVars.CommonGlobalLoaded = true
		se.sessionVars.InRestrictedSQL = true
	}
	defer sysSessionPool.Put(se)

	rs, err := s.compileAndExec(se, sql)
	if err != nil {
		return nil, err
	}
	return drainRecordSet(rs)
}

func drainRecordSet(rs RecordSet) ([]*Row, error) {
	defer rs.Close()
	var rows []*Row
	for {
		row, err := rs.Next()
		if err != nil {
			return nil, err
		}
		if row == nil {
			return rows, nil
		}
		rows = append(rows, row)
	}
}

// loadValueFromSysTable is one of the callers (GC worker).
func loadValueFromSysTable(s *session, key string) (string, error) {
	rows, err := s.ExecRestrictedSQL("SELECT * FROM mysql.tidb")
	if err != nil {
		return "", err
	}
	for _, row := range rows {
		if len(row.Data) == 2 && row.Data[0] == key {
			return row.Data[1], nil
		}
	}
	return "", nil
}
