// Package bug reproduces the shape of ClickHouse/clickhouse-go#327
// (https://github.com/ClickHouse/clickhouse-go/issues/327): a user reusing
// data.Block through a sync.Pool found that Block.Reset clears the row and
// column counts and the write buffers but not Columns, while Block.Read
// appends every column it decodes to Columns. After a Reset the next Read
// doubled the column list.
//
// Check: noreset (a Reset that forgets a field; the object is "reset" after
// Get but still carries the previous user's columns). The docs give no line
// of their own for this shape; like the other noreset reports it belongs at
// the Put.
package bug

import (
	"errors"
	"sync"
)

type Column struct {
	Name string
	Type string
}

// Decoder yields the header of a block.
type Decoder interface {
	Uvarint() (uint64, error)
	String() (string, error)
}

type Block struct {
	Values     [][]any
	Columns    []*Column
	NumRows    uint64
	NumColumns uint64
	buffers    [][]byte
}

func (b *Block) Reset() {
	b.NumRows = 0
	b.NumColumns = 0
	for i := range b.buffers {
		b.buffers[i] = b.buffers[i][:0]
	}
	b.buffers = nil
}

func (b *Block) Read(dec Decoder) error {
	var err error
	if b.NumColumns, err = dec.Uvarint(); err != nil {
		return err
	}
	if b.NumRows, err = dec.Uvarint(); err != nil {
		return err
	}
	b.Values = make([][]any, b.NumColumns)
	for i := 0; i < int(b.NumColumns); i++ {
		name, err := dec.String()
		if err != nil {
			return err
		}
		typ, err := dec.String()
		if err != nil {
			return err
		}
		b.Columns = append(b.Columns, &Column{Name: name, Type: typ})
	}
	return nil
}

func (b *Block) ColumnNames() []string {
	names := make([]string, 0, len(b.Columns))
	for _, c := range b.Columns {
		names = append(names, c.Name)
	}
	return names
}

var blockPool = sync.Pool{New: func() any { return new(Block) }}

var errMismatch = errors.New("column count mismatch")

// ReadHeader decodes one block header and returns its column names.
func ReadHeader(dec Decoder) ([]string, error) {
	b := blockPool.Get().(*Block)
	b.Reset()
	err := b.Read(dec)
	if err == nil && uint64(len(b.Columns)) != b.NumColumns {
		err = errMismatch
	}
	names := b.ColumnNames()
	blockPool.Put(b) // want `noreset`
	return names, err
}
