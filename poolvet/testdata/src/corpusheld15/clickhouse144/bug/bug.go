// Package bug reproduces the shape of ClickHouse/clickhouse-go#144
// (https://github.com/ClickHouse/clickhouse-go/pull/144): the driver kept its
// WriteBuffers in a sync.Pool. A buffer grows to fit the largest block ever
// written through it and goes back to the pool at that size, so after a few
// large inserts every pooled buffer pins a huge slice; the reporter's
// machines ran out of memory. The PR replaced the pool with a bounded
// ("leaky") one; the twin uses the plain fix of dropping oversized buffers.
//
// Check: unbounded (growable buffer struct put back with no size cap)
package bug

import (
	"io"
	"sync"
)

type WriteBuffer struct {
	buf []byte
}

func (wb *WriteBuffer) Write(p []byte) (int, error) {
	wb.buf = append(wb.buf, p...)
	return len(p), nil
}

func (wb *WriteBuffer) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(wb.buf)
	return int64(n), err
}

func (wb *WriteBuffer) Reset() {
	wb.buf = wb.buf[:0]
}

var bufferPool = sync.Pool{
	New: func() any {
		return &WriteBuffer{buf: make([]byte, 0, 4096)}
	},
}

// flushBlock encodes the rows of one block and sends them to the server.
func flushBlock(conn io.Writer, rows [][]byte) error {
	wb := bufferPool.Get().(*WriteBuffer)
	wb.Reset()
	for _, r := range rows {
		if _, err := wb.Write(r); err != nil {
			return err
		}
	}
	_, err := wb.WriteTo(conn)
	wb.Reset()
	bufferPool.Put(wb) // want `unbounded`
	return err
}
