// Package fixed is a fixed twin of the bolt page pool cited in
// dominikh/go-staticcheck#10
// (https://github.com/dominikh/go-staticcheck/issues/10): pages are pooled
// through pointers.
package fixed

import "sync"

type DB struct {
	pageSize int
	pagePool sync.Pool
}

func Open(pageSize int) *DB {
	db := &DB{pageSize: pageSize}
	db.pagePool.New = func() any { b := make([]byte, pageSize); return &b }
	return db
}

func (db *DB) allocate() *[]byte { return db.pagePool.Get().(*[]byte) }

func (db *DB) writePages(pages []*[]byte, write func([]byte) error) error {
	for _, p := range pages {
		if err := write(*p); err != nil {
			return err
		}
	}
	for _, p := range pages {
		if len(*p) != db.pageSize {
			continue
		}
		clear(*p)
		db.pagePool.Put(p)
	}
	return nil
}
