// Package bug reproduces the shape of mattermost/logr commit 0c93e63
// (https://github.com/mattermost/logr/commit/0c93e6357eb5096aead2a5a19c9717f6093324ad):
// the Plain formatter took a bytes.Buffer from a package pool, registered a
// deferred closure that reset the buffer and put it back (when under the
// logger's size limit), and then returned buf.Bytes(). The deferred Put runs
// as the function returns, so the caller (a target writing to its io.Writer)
// gets a view into a buffer that another goroutine's formatter may already be
// reusing; log lines raced and came out garbled. The fix let the target borrow
// the buffer, pass it to Format, and release it only after writing it out.
// Check: useafterput (the returned Bytes() view escapes past the deferred Put;
// report at the return).
package bug

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

var bufferPool = sync.Pool{
	New: func() interface{} {
		return new(bytes.Buffer)
	},
}

// Logr holds logger-wide settings.
type Logr struct {
	MaxPooledFormatBuffer int
}

// Logger is a named logger owned by a Logr.
type Logger struct {
	logr *Logr
}

// Logr returns the owning Logr.
func (l *Logger) Logr() *Logr { return l.logr }

// LogRec is one log record.
type LogRec struct {
	logger *Logger
	level  string
	msg    string
	when   time.Time
}

// Logger returns the record's logger.
func (rec *LogRec) Logger() *Logger { return rec.logger }

// Plain is the simplest formatter.
type Plain struct {
	DisableTimestamp bool
	DisableLevel     bool
	Delim            string
}

// Format converts a log record to bytes.
func (p *Plain) Format(rec *LogRec, stacktrace bool) ([]byte, error) {
	delim := p.Delim
	if delim == "" {
		delim = " "
	}

	var buf *bytes.Buffer = bufferPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() < rec.Logger().Logr().MaxPooledFormatBuffer {
			buf.Reset()
			bufferPool.Put(buf)
		}
	}()

	if !p.DisableTimestamp {
		var arr [64]byte
		buf.Write(rec.when.AppendFormat(arr[:0], time.RFC3339))
		buf.WriteString(delim)
	}
	if !p.DisableLevel {
		fmt.Fprintf(buf, "%v%s", rec.level, delim)
	}
	fmt.Fprint(buf, rec.msg, delim)
	buf.WriteString("\n")
	return buf.Bytes(), nil // want `useafterput`
}

// Writer is a target that writes formatted records to an io.Writer.
type Writer struct {
	formatter *Plain
	out       io.Writer
}

// Write formats the record and writes it out.
func (w *Writer) Write(rec *LogRec) error {
	data, err := w.formatter.Format(rec, false)
	if err != nil {
		return err
	}
	_, err = w.out.Write(data)
	return err
}
