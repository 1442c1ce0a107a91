// Package bug reproduces the shape of a buffer double-recycle fixed in
// snonux/dtail commit 849951b
// (https://github.com/snonux/dtail/commit/849951be1d1a7ee9f9302006ccb187bf5b4e36f3,
// "buffer-pool double-recycle races"; regression test
// TestReadWithProcessorNoDoubleRecycle in internal/io/fs): readWithProcessor
// deferred the recycling of its line buffer with `defer
// pool.RecycleBytesBuffer(message)`, which captured the first buffer when
// the defer ran. Every complete line, and the trailing partial line at EOF,
// was handed to ProcessFilteredLine, which recycles it. At return the defer
// recycled the first buffer a second time.
//
// Check: doubleput (an explicit put, through a callee that always recycles
// its argument, of the object a deferred put took at defer time; the docs
// report each explicit put that precedes a return on top of a deferred put,
// so want at both ProcessFilteredLine calls.)
package bug

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"sync"
)

var bytesBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuffer = 64 << 10

func recycleBytesBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	b.Reset()
	bytesBufferPool.Put(b)
}

type filteringProcessor struct {
	re    *regexp.Regexp
	lines []string
}

// ProcessFilteredLine takes ownership of line and recycles it.
func (fp *filteringProcessor) ProcessFilteredLine(line *bytes.Buffer) error {
	if fp.re.Match(line.Bytes()) {
		fp.lines = append(fp.lines, line.String())
	}
	recycleBytesBuffer(line)
	return nil
}

func readWithProcessor(reader *bufio.Reader, fp *filteringProcessor) error {
	message := bytesBufferPool.Get().(*bytes.Buffer)
	defer recycleBytesBuffer(message)

	for {
		b, err := reader.ReadByte()
		if err != nil {
			if err != io.EOF {
				return err
			}
			if message.Len() > 0 {
				// the last line has no trailing newline
				if err := fp.ProcessFilteredLine(message); err != nil { // want `doubleput`
					return err
				}
			}
			return nil
		}
		message.WriteByte(b)
		if b == '\n' {
			if err := fp.ProcessFilteredLine(message); err != nil { // want `doubleput`
				return err
			}
			// the previous buffer was consumed: take a fresh one
			message = bytesBufferPool.Get().(*bytes.Buffer)
		}
	}
}
