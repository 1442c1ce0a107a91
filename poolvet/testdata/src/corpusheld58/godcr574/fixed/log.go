// Source: https://github.com/planetdecred/godcr/issues/455
// Fix: https://github.com/planetdecred/godcr/pull/574
// (commit 7444b2dd0e589e253e10e791424a18b7ee8d02cc, "Resolve Log Race")
//
// Bug: godcr's logWriter (the io.Writer behind its decred/slog backend)
// forwarded every log line to the debug page by starting a goroutine that
// converts p to a string and sends it on internalLog. p is the slog
// backend's pooled buffer: Backend.print takes it from bufferPool, calls
// b.w.Write(*bytebuf) and then recycleBuffer(bytebuf) puts it back, so the
// goroutine reads a buffer that is already back in the pool and being
// reused for the next log line (the race detector showed many races around
// logging). The backend below re-creates decred/slog's backend.go.
// Fix: the internalLog channel and the goroutine were removed; Write only
// writes p synchronously to stdout and the log rotator (the log page reads
// the log file instead).
//
// Check: useafterput (recycleBuffer puts the buffer back after Write handed
// it to a goroutine that still reads it)
package fixed

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Backend is a logging backend (decred/slog).
type Backend struct {
	w  io.Writer
	mu sync.Mutex // ensures atomic writes
}

// NewBackend creates a logger backend from a Writer.
func NewBackend(w io.Writer) *Backend {
	return &Backend{w: w}
}

// bufferPool defines a concurrent safe free list of byte slices used to provide
// temporary buffers for formatting log messages prior to outputting them.
var bufferPool = sync.Pool{
	New: func() interface{} {
		b := make([]byte, 0, 120)
		return &b // pointer to slice to avoid boxing alloc
	},
}

// buffer returns a byte slice from the free list.
func buffer() *[]byte {
	return bufferPool.Get().(*[]byte)
}

// recycleBuffer puts the provided byte slice, which should have been obtain via
// the buffer function, back on the free list.
func recycleBuffer(b *[]byte) {
	*b = (*b)[:0]
	bufferPool.Put(b)
}

func formatHeader(buf *[]byte, t time.Time, lvl, tag string) {
	*buf = append(*buf, t.Format("2006-01-02 15:04:05.000")...)
	*buf = append(*buf, " ["...)
	*buf = append(*buf, lvl...)
	*buf = append(*buf, "] "...)
	*buf = append(*buf, tag...)
	*buf = append(*buf, ": "...)
}

// print outputs a log message to the writer associated with the backend.
func (b *Backend) print(lvl, tag string, args ...interface{}) {
	t := time.Now() // get as early as possible

	bytebuf := buffer()

	formatHeader(bytebuf, t, lvl, tag)
	buf := bytes.NewBuffer(*bytebuf)
	fmt.Fprintln(buf, args...)
	*bytebuf = buf.Bytes()

	b.mu.Lock()
	b.w.Write(*bytebuf)
	b.mu.Unlock()

	recycleBuffer(bytebuf)
}

// logWriter implements an io.Writer that outputs to both standard output and
// the write-end pipe of an initialized log rotator.
type logWriter struct{}

var logRotator io.Writer = io.Discard

// Write writes the data in p to standard out and the log rotator.
func (l logWriter) Write(p []byte) (n int, err error) {
	os.Stdout.Write(p)
	return logRotator.Write(p)
}

var backendLog = NewBackend(logWriter{})

// Info logs at info level for the GDCR subsystem.
func Info(args ...interface{}) {
	backendLog.print("INF", "GDCR", args...)
}
