// Package fixed is blevesearch/bleve#1797 after the fix: the pool holds
// *RowBuffer values, so Put stores a pointer and does not allocate.
package fixed

import "sync"

const RowBufferSize = 4 * 1024

type RowBuffer struct {
	buf []byte
}

var rowBufferPool sync.Pool

func GetRowBuffer() *RowBuffer {
	if rb, ok := rowBufferPool.Get().(*RowBuffer); ok {
		return rb
	}
	return &RowBuffer{buf: make([]byte, RowBufferSize)}
}

func PutRowBuffer(rb *RowBuffer) {
	rowBufferPool.Put(rb)
}

type Row interface {
	KeySize() int
	KeyTo(buf []byte) (int, error)
}

type Writer interface {
	Set(key []byte) error
}

func storeRows(w Writer, rows []Row) error {
	rb := GetRowBuffer()
	defer PutRowBuffer(rb)
	for _, row := range rows {
		dst := rb.buf
		if row.KeySize() > len(rb.buf) {
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
