// Package bug reproduces the shape cited in dominikh/go-staticcheck#10
// (https://github.com/dominikh/go-staticcheck/issues/10), the issue behind
// SA6002, which lists boltdb/bolt tx.go among the examples: after writing
// a transaction, bolt zeroes small pages and returns them to db.pagePool as
// []byte values.
//
// Check: nonpointer.
package bug

import "sync"

type DB struct {
	pageSize int
	pagePool sync.Pool
}

func Open(pageSize int) *DB {
	db := &DB{pageSize: pageSize}
	db.pagePool.New = func() any { return make([]byte, pageSize) }
	return db
}

func (db *DB) allocate() []byte { return db.pagePool.Get().([]byte) }

func (db *DB) writePages(pages [][]byte, write func([]byte) error) error {
	for _, p := range pages {
		if err := write(p); err != nil {
			return err
		}
	}
	for _, p := range pages {
		if len(p) != db.pageSize {
			continue
		}
		buf := p[:db.pageSize]
		clear(buf)
		db.pagePool.Put(buf) // want `non-pointer|nonpointer`
	}
	return nil
}
