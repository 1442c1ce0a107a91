// Package bug reproduces the shape of scylladb/gocqlx#26, fixing #25
// (https://github.com/scylladb/gocqlx/pull/26): Queryx.Get and Select
// released the query to its pool themselves, and callers that also
// released the query (as documented elsewhere) put it back twice, causing
// "sporadic, non-reproducible" data races between unrelated queries.
//
// Check: doubleput (a Put in a callee on top of the caller's deferred
// release).
package bug

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

// Get scans the first row into dest and releases the query.
func (q *Queryx) Get(dest *string) error {
	defer q.Release()
	return q.scan(dest)
}

func Load(stmt string) (string, error) {
	q := Query(stmt, nil)
	defer q.Release()
	var v string
	err := q.Get(&v) // want `twice|again|more than once|doubleput`
	return v, err
}
