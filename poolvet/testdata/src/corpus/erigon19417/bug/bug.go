// Package bug reproduces the shape of erigontech/erigon#19417
// (https://github.com/erigontech/erigon/pull/19417), follow-up to #19401:
// pooled bufio writers were put back still pointing at the file they
// wrapped; "put must call buf.Reset(nil)" so the pool does not keep the
// underlying writer (and its file) reachable.
//
// Check: noreset (a pooled *bufio.Writer put back without Reset).
package bug

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
	bufioWriterPool.Put(bw) // want `noreset|without Reset|not reset|Reset\(nil\)`
	return err
}
