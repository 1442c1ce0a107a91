// Package fixed is grafana/loki#790 with the obvious fix for the pool it
// replaced: a line buffer that grew past the largest size worth keeping
// is dropped instead of going back to the pool.
package fixed

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

// maxPooledLineBuffer is the largest buffer kept for reuse (16 KiB, the
// top bucket of the replacement pool).
const maxPooledLineBuffer = 16 << 10

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

func (si *bufferedIterator) Line() string {
	return string(si.curLine)
}

func (si *bufferedIterator) Close() error {
	if !si.closed {
		si.closed = true
		si.curLine = nil
		if si.buf != nil {
			si.buf.Reset()
			if si.buf.Cap() <= maxPooledLineBuffer {
				BytesBufferPool.Put(si.buf)
			}
			si.buf = nil
		}
	}
	return si.err
}
