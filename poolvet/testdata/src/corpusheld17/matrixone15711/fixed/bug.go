// Package fixed is the fixed twin of matrixorigin/matrixone#15711
// (https://github.com/matrixorigin/matrixone/pull/15711): metadataScan no
// longer frees the vectors the executors return; the executors free them
// once, when the operator is freed.
package fixed

import (
	"errors"
	"strings"
	"sync"
)

const maxVecLen = 4096

type Vector struct {
	col []string
}

var vecPool = sync.Pool{New: func() any { return new(Vector) }}

func NewVec() *Vector {
	v := vecPool.Get().(*Vector)
	v.col = v.col[:0]
	return v
}

// Free gives the vector back to the pool unless it grew too large.
func (v *Vector) Free() {
	if cap(v.col) > maxVecLen {
		return
	}
	clear(v.col)
	v.col = v.col[:0]
	vecPool.Put(v)
}

type Batch struct {
	Vecs []*Vector
}

func (b *Batch) Clean() {
	for _, v := range b.Vecs {
		if v != nil {
			v.Free()
		}
	}
	b.Vecs = nil
}

// ExpressionExecutor evaluates one argument into a vector it owns and
// reuses for every batch.
type ExpressionExecutor struct {
	pos int
	vec *Vector
}

func (e *ExpressionExecutor) Eval(bat *Batch) (*Vector, error) {
	if e.pos >= len(bat.Vecs) {
		return nil, errors.New("bad column")
	}
	if e.vec == nil {
		e.vec = NewVec()
	}
	e.vec.col = append(e.vec.col[:0], bat.Vecs[e.pos].col...)
	return e.vec, nil
}

func (e *ExpressionExecutor) Free() {
	if e.vec != nil {
		e.vec.Free()
		e.vec = nil
	}
}

type container struct {
	executorsForArgs []*ExpressionExecutor
}

type Argument struct {
	ctr *container
}

type CallResult struct {
	Batch *Batch
}

type ColumnMeta struct {
	Name string
	Rows string
}

type Relation interface {
	GetColumMetadataScanInfo(col string) ([]ColumnMeta, error)
}

type Engine interface {
	Relation(db, table string) (Relation, error)
}

func metadataScan(e Engine, arg *Argument, result *CallResult) (bool, error) {
	var (
		err         error
		source, col *Vector
		rbat        *Batch
	)
	defer func() {
		// source and col belong to the executors, which free them
		if err != nil && rbat != nil {
			rbat.Clean()
		}
	}()

	bat := result.Batch
	if bat == nil {
		return true, nil
	}

	source, err = arg.ctr.executorsForArgs[0].Eval(bat)
	if err != nil {
		return false, err
	}
	col, err = arg.ctr.executorsForArgs[1].Eval(bat)
	if err != nil {
		return false, err
	}

	dbname, tablename, colname, err := handleDatasource(source.col, col.col)
	if err != nil {
		return false, err
	}
	rel, err := e.Relation(dbname, tablename)
	if err != nil {
		return false, err
	}
	metaInfos, err := rel.GetColumMetadataScanInfo(colname)
	if err != nil {
		return false, err
	}
	rbat = genRetBatch(metaInfos)
	result.Batch = rbat
	return false, nil
}

func handleDatasource(first, second []string) (string, string, string, error) {
	if len(first) != 1 || len(second) != 1 {
		return "", "", "", errors.New("wrong input len")
	}
	db, table, ok := strings.Cut(first[0], ".")
	if !ok {
		return "", "", "", errors.New("wrong len of db and tbl input")
	}
	return db, table, second[0], nil
}

func genRetBatch(infos []ColumnMeta) *Batch {
	names, rows := NewVec(), NewVec()
	for _, m := range infos {
		names.col = append(names.col, m.Name)
		rows.col = append(rows.col, m.Rows)
	}
	return &Batch{Vecs: []*Vector{names, rows}}
}

// Free is called when the pipeline is torn down.
func (arg *Argument) Free() {
	if arg.ctr != nil {
		arg.ctr.cleanExecutors()
	}
}

func (ctr *container) cleanExecutors() {
	for i := range ctr.executorsForArgs {
		if ctr.executorsForArgs[i] != nil {
			ctr.executorsForArgs[i].Free()
		}
	}
	ctr.executorsForArgs = nil
}
