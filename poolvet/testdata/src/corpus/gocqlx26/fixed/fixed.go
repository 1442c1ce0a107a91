// Package fixed is the fix of scylladb/gocqlx#26
// (https://github.com/scylladb/gocqlx/pull/26): Get no longer releases the
// query; the caller owns the release.
package fixed

import "sync"

type Queryx struct {
	stmt  string
	names []string
}

var queryPool = sync.Pool{New: func() any { return new(Queryx) }}

func Query(stmt string, names []string) *Queryx {
	q := queryPool.Get().(*Queryx)
	q.stmt, q.names = stmt, names
	return q
}

func (q *Queryx) Release() {
	*q = Queryx{}
	queryPool.Put(q)
}

func (q *Queryx) scan(dest *string) error {
	*dest = q.stmt
	return nil
}

// Get scans the first row into dest.
func (q *Queryx) Get(dest *string) error {
	return q.scan(dest)
}

func Load(stmt string) (string, error) {
	q := Query(stmt, nil)
	defer q.Release()
	var v string
	err := q.Get(&v)
	return v, err
}
