// Package fixed is blevesearch/bleve#1785 after the fix: the pool holds a
// pointer to the scratch slice, so Put stores a pointer without boxing.
package fixed

import (
	"encoding/binary"
	"io"
	"sync"
)

var scratchPool = sync.Pool{
	New: func() any {
		b := make([]byte, binary.MaxVarintLen64)
		return &b
	},
}

// writeUvarint writes v in varint form using a pooled scratch buffer.
func writeUvarint(w io.Writer, v uint64) error {
	bp := scratchPool.Get().(*[]byte)
	n := binary.PutUvarint(*bp, v)
	_, err := w.Write((*bp)[:n])
	scratchPool.Put(bp)
	return err
}

// WritePostings writes a count followed by each document number.
func WritePostings(w io.Writer, docs []uint64) error {
	if err := writeUvarint(w, uint64(len(docs))); err != nil {
		return err
	}
	for _, d := range docs {
		if err := writeUvarint(w, d); err != nil {
			return err
		}
	}
	return nil
}
