// Package bug reproduces the shape of ClickHouse/clickhouse-go#79
// (https://github.com/ClickHouse/clickhouse-go/issues/79): the driver kept
// byte slices in its sync.Pool instead of pointers to them, so every Put
// boxed a slice header (staticcheck SA6002).
//
// Check: nonpointer.
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

var scratch = sync.Pool{New: func() any { return make([]byte, 8) }}

func WriteUInt64(w io.Writer, v uint64) error {
	b := scratch.Get().([]byte)
	binary.LittleEndian.PutUint64(b, v)
	_, err := w.Write(b)
	scratch.Put(b) // want `non-pointer|nonpointer`
	return err
}
