package useafterput

import "sync"

// A pooled object held in a named result, put by a deferred call and
// returned: the return writes the result back into its variable before
// the deferred Put runs, and the caller gets an object that is back in the
// pool (DataDog/go-sqllexer#52's StatementMetadata).

type stmtMeta struct{ tables []string }

func (m *stmtMeta) reset() { m.tables = m.tables[:0] }

var stmtMetas = sync.Pool{New: func() any { return new(stmtMeta) }}

func collectTables(m *stmtMeta, q string) error {
	m.tables = append(m.tables, q)
	return nil
}

func normalize(q string) (out string, meta *stmtMeta, err error) {
	meta = stmtMetas.Get().(*stmtMeta)
	meta.reset()
	defer stmtMetas.Put(meta)
	if err = collectTables(meta, q); err != nil {
		return "", nil, err
	}
	return q, meta, nil // want `returned value shares memory with meta, which the deferred Put at line 24`
}

// The variable given another object before the return: the new one is
// returned, the deferred Put gives back the first.
func normalizeFresh(q string) (out string, meta *stmtMeta, err error) {
	meta = stmtMetas.Get().(*stmtMeta)
	defer stmtMetas.Put(meta)
	err = collectTables(meta, q)
	meta = &stmtMeta{tables: append([]string(nil), meta.tables...)}
	return q, meta, err
}
