// Package bug reproduces the shape of blevesearch/bleve#1785
// (https://github.com/blevesearch/bleve/pull/1785): a sync.Pool held
// fixed-size scratch byte slices as plain slice values. Every Put of a
// slice boxes its header into an interface, an allocation per use that the
// pool was meant to avoid; the PR stores a pointer to the slice instead.
// The encoding function below is representative: the PR text names the
// pattern (slice values in a sync.Pool), not a particular helper.
//
// Check: nonpointer (a fixed-size []byte taken from the pool, used as
// scratch for one encoding, and put back as a slice value).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

var scratchPool = sync.Pool{
	New: func() any { return make([]byte, binary.MaxVarintLen64) },
}

// writeUvarint writes v in varint form using a pooled scratch buffer.
func writeUvarint(w io.Writer, v uint64) error {
	buf := scratchPool.Get().([]byte)
	n := binary.PutUvarint(buf, v)
	_, err := w.Write(buf[:n])
	scratchPool.Put(buf) // want `nonpointer`
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
