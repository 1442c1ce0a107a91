// Package fixed is a fixed twin of ClickHouse/clickhouse-go#79
// (https://github.com/ClickHouse/clickhouse-go/issues/79): pool a pointer
// to a fixed-size array, which Put stores without allocating.
package fixed

import (
	"encoding/binary"
	"io"
	"sync"
)

var scratch = sync.Pool{New: func() any { return new([8]byte) }}

func WriteUInt64(w io.Writer, v uint64) error {
	b := scratch.Get().(*[8]byte)
	binary.LittleEndian.PutUint64(b[:], v)
	_, err := w.Write(b[:])
	scratch.Put(b)
	return err
}
