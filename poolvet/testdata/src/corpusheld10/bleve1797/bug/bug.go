// Package bug reproduces the shape of blevesearch/bleve#1797
// (https://github.com/blevesearch/bleve/pull/1797): the upsidedown index
// kept its row-encoding scratch buffers in a sync.Pool as plain []byte
// values. Every PutRowBuffer boxed the slice header into an interface,
// an extra heap allocation per Put that the pool was meant to avoid.
// The merged fix pools a pointer (*RowBuffer) instead of the slice.
//
// Check: nonpointer (a []byte slice put straight into a sync.Pool by a
// Put helper).
package bug

import "sync"

const RowBufferSize = 4 * 1024

var rowBufferPool sync.Pool

func GetRowBuffer() []byte {
	if rb, ok := rowBufferPool.Get().([]byte); ok {
		return rb
	}
	return make([]byte, RowBufferSize)
}

func PutRowBuffer(buf []byte) {
	rowBufferPool.Put(buf) // want `nonpointer`
}

type Row interface {
	KeySize() int
	KeyTo(buf []byte) (int, error)
}

type Writer interface {
	Set(key []byte) error
}

// storeRows encodes each row's key into the pooled scratch buffer (or a
// one-off buffer for rows that do not fit) and hands it to the writer,
// which copies what it keeps.
func storeRows(w Writer, rows []Row) error {
	rowBuf := GetRowBuffer()
	defer PutRowBuffer(rowBuf)
	for _, row := range rows {
		dst := rowBuf
		if row.KeySize() > len(rowBuf) {
			dst = make([]byte, row.KeySize())
		}
		n, err := row.KeyTo(dst)
		if err != nil {
			return err
		}
		if err := w.Set(dst[:n]); err != nil {
			return err
		}
	}
	return nil
}
