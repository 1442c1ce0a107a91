// Package fixed is the fix of erigontech/erigon#19417
// (https://github.com/erigontech/erigon/pull/19417): Reset(nil) before the
// writer goes back to the pool.
package fixed

import (
	"bufio"
	"encoding/binary"
	"io"
	"sync"
)

var bufioWriterPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 512<<10) }}

func WriteOffsets(w io.Writer, offsets []uint64) error {
	bw := bufioWriterPool.Get().(*bufio.Writer)
	bw.Reset(w)
	var b [8]byte
	for _, off := range offsets {
		binary.BigEndian.PutUint64(b[:], off)
		if _, err := bw.Write(b[:]); err != nil {
			return err
		}
	}
	err := bw.Flush()
	bw.Reset(nil)
	bufioWriterPool.Put(bw)
	return err
}
