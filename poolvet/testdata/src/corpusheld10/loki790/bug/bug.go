// Package bug reproduces the shape of grafana/loki#790
// (https://github.com/grafana/loki/pull/790, fixing #787; the pool came
// in with #713, https://github.com/grafana/loki/pull/713): chunk
// iterators decompress each log line into a *bytes.Buffer from a shared
// sync.Pool, growing it to the line's length. Log lines are unbounded, so
// one long line leaves a large buffer that goes back to the pool when the
// iterator closes and is then held for every later block. The fix moved
// to a size-bucketed pool that does not keep lines larger than its top
// bucket.
//
// Check: unbounded (a *bytes.Buffer grown to a caller-controlled length
// is put back in Close with no bound on its capacity; the Cap() test in
// Next only decides how much to grow).
package bug

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

// BytesBufferPool holds the buffers lines are decompressed into.
var BytesBufferPool = sync.Pool{
	New: func() any { return bytes.NewBuffer(make([]byte, 0, 4096)) },
}

type bufferedIterator struct {
	s       *bufio.Reader
	buf     *bytes.Buffer
	curLine []byte
	err     error
	closed  bool
}

func newBufferedIterator(r io.Reader) *bufferedIterator {
	return &bufferedIterator{s: bufio.NewReader(r)}
}

// Next reads one length-prefixed line.
func (si *bufferedIterator) Next() bool {
	l, err := binary.ReadUvarint(si.s)
	if err != nil {
		if err != io.EOF {
			si.err = err
		}
		return false
	}
	if si.buf == nil {
		si.buf = BytesBufferPool.Get().(*bytes.Buffer)
		si.buf.Reset()
	}
	for si.buf.Cap() < int(l) {
		si.buf.Grow(int(l) - si.buf.Cap())
	}
	line := si.buf.Bytes()[:l]
	if _, err := io.ReadFull(si.s, line); err != nil {
		si.err = err
		return false
	}
	si.curLine = line
	return true
}

// Line returns a copy of the current line.
func (si *bufferedIterator) Line() string {
	return string(si.curLine)
}

func (si *bufferedIterator) Close() error {
	if !si.closed {
		si.closed = true
		si.curLine = nil
		if si.buf != nil {
			si.buf.Reset()
			BytesBufferPool.Put(si.buf) // want `unbounded`
			si.buf = nil
		}
	}
	return si.err
}
