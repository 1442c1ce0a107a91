// Package bug is the fixed twin of mattermost/logr commit 0c93e63
// (https://github.com/mattermost/logr/commit/0c93e6357eb5096aead2a5a19c9717f6093324ad):
// the formatter no longer owns a pooled buffer; the target borrows one, lets
// Format fill it, writes it out, and releases it afterwards.
// Check: useafterput (none in this twin).
package bug

import (
	"bytes"
	"fmt"
	"io"
	"sync"
	"time"
)

// Logr holds logger-wide settings and the buffer pool.
type Logr struct {
	MaxPooledBuffer int
	bufferPool      sync.Pool
}

// BorrowBuffer borrows a buffer from the pool.
func (logr *Logr) BorrowBuffer() *bytes.Buffer {
	if b, ok := logr.bufferPool.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// ReleaseBuffer returns a buffer to the pool if it is not too large.
func (logr *Logr) ReleaseBuffer(buf *bytes.Buffer) {
	if buf.Cap() < logr.MaxPooledBuffer {
		buf.Reset()
		logr.bufferPool.Put(buf)
	}
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

// Format fills buf (or a new buffer if nil) with the formatted record.
func (p *Plain) Format(rec *LogRec, stacktrace bool, buf *bytes.Buffer) (*bytes.Buffer, error) {
	delim := p.Delim
	if delim == "" {
		delim = " "
	}
	if buf == nil {
		buf = &bytes.Buffer{}
	}

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
	return buf, nil
}

// Writer is a target that writes formatted records to an io.Writer.
type Writer struct {
	formatter *Plain
	out       io.Writer
}

// Write formats the record into a borrowed buffer and writes it out.
func (w *Writer) Write(rec *LogRec) error {
	buf := rec.Logger().Logr().BorrowBuffer()
	defer rec.Logger().Logr().ReleaseBuffer(buf)

	buf, err := w.formatter.Format(rec, false, buf)
	if err != nil {
		return err
	}
	_, err = w.out.Write(buf.Bytes())
	return err
}
