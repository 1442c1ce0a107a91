// Package fixed is the twin of ../bug for ClickHouse/clickhouse-go#144
// (https://github.com/ClickHouse/clickhouse-go/pull/144): a buffer that grew
// past the cap is dropped instead of being pooled.
package fixed

import (
	"io"
	"sync"
)

const maxPooledBuffer = 1 << 20

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
	if cap(wb.buf) <= maxPooledBuffer {
		bufferPool.Put(wb)
	}
	return err
}
