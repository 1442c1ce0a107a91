// Package fixed is the fix of the buffer double-recycle in snonux/dtail
// commit 849951b
// (https://github.com/snonux/dtail/commit/849951be1d1a7ee9f9302006ccb187bf5b4e36f3):
// the deferred recycle is a closure that recycles the buffer message holds at
// return, and every hand-off to ProcessFilteredLine clears message first, so
// no buffer is recycled by both.
package fixed

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
	// recycle the buffer message holds when the function returns, not the
	// one it held when the defer ran; hand-offs set it to nil
	defer func() {
		if message != nil {
			recycleBytesBuffer(message)
		}
	}()

	for {
		b, err := reader.ReadByte()
		if err != nil {
			if err != io.EOF {
				return err
			}
			if message.Len() > 0 {
				// the last line has no trailing newline
				last := message
				message = nil
				if err := fp.ProcessFilteredLine(last); err != nil {
					return err
				}
			}
			return nil
		}
		message.WriteByte(b)
		if b == '\n' {
			line := message
			message = nil
			if err := fp.ProcessFilteredLine(line); err != nil {
				return err
			}
			// the previous buffer was consumed: take a fresh one
			message = bytesBufferPool.Get().(*bytes.Buffer)
		}
	}
}
