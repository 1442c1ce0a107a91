// Package fixed is the fixed twin of trufflesecurity/trufflehog#2732
// (https://github.com/trufflesecurity/trufflehog/pull/2732): when a
// BufferedFileWriter switched to read-only mode, CloseForWriting returned its
// pooled buffer to the pool and only afterwards flushed what was left in
// that buffer to the temporary file. The author noted in review that the
// return was meant to be deferred (a failing test showed the lost data).
//
// Fix (as in the merged PR): the return to the pool is deferred until the
// flush is done. No check should report here.
package fixed

import (
	"bytes"
	"io"
	"os"
	"sync"
)

const maxPooledBuf = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer {
	b := bufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	bufPool.Put(b)
}

type state int

const (
	writeOnly state = iota
	readOnly
)

type BufferedFileWriter struct {
	threshold uint64
	size      uint64
	state     state
	buf       *bytes.Buffer
	filename  string
	file      io.WriteCloser
}

func New(threshold uint64) *BufferedFileWriter {
	return &BufferedFileWriter{threshold: threshold, buf: getBuffer()}
}

func (w *BufferedFileWriter) Write(data []byte) (int, error) {
	w.size += uint64(len(data))
	if w.file == nil && uint64(w.buf.Len()+len(data)) > w.threshold {
		f, err := os.CreateTemp("", "bufferedfilewriter")
		if err != nil {
			return 0, err
		}
		w.filename = f.Name()
		w.file = f
	}
	return w.buf.Write(data)
}

// CloseForWriting moves the writer to read-only mode. When everything fit
// in memory the buffer stays with the writer for reading.
func (w *BufferedFileWriter) CloseForWriting() error {
	w.state = readOnly
	if w.file == nil {
		return nil
	}

	// Give the buffer back once its contents are in the file.
	defer putBuffer(w.buf)

	if w.buf.Len() > 0 {
		if _, err := w.buf.WriteTo(w.file); err != nil {
			return err
		}
	}
	return w.file.Close()
}
