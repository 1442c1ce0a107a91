// Package realbugsunbounded holds unbounded-buffer bugs reported in public
// projects, as buggy/fixed pairs in the shape of the original code; see
// package realbugs for the other checks.
package realbugsunbounded

import (
	"bytes"
	"io"
	"sync"
)

// ---- unbounded ----

// golang/go#23199: the sync.Pool example (a Log function) put buffers of
// any size back; a buffer grown by one huge message stays pinned. The fix
// in the discussion, as fmt does, drops buffers above a bound.

var logBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func goLog(w io.Writer, key, val string) {
	b := logBufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(key)
	b.WriteByte('=')
	b.WriteString(val)
	w.Write(b.Bytes())
	logBufPool.Put(b) // want `b \(\*bytes.Buffer\) is put into the pool without a capacity check`
}

func goLogFixed(w io.Writer, key, val string) {
	b := logBufPool.Get().(*bytes.Buffer)
	b.Reset()
	b.WriteString(key)
	b.WriteByte('=')
	b.WriteString(val)
	w.Write(b.Bytes())
	if b.Cap() <= 64<<10 {
		logBufPool.Put(b)
	}
}

// IBM/fluent-forward-go#58: the transport's buffer pool kept buffers of
// every size, so rare huge messages grew every pooled buffer; the fix
// drops oversized buffers.

const maxBufferSize = 1 << 20

var fluentBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func fluentEncodeMessage(w io.Writer, tag string, records [][]byte) error {
	buf := fluentBufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer fluentBufferPool.Put(buf) // want `buf \(\*bytes.Buffer\) is put into the pool without a capacity check`
	buf.WriteString(tag)
	for _, r := range records {
		buf.Write(r)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func fluentEncodeMessageFixed(w io.Writer, tag string, records [][]byte) error {
	buf := fluentBufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxBufferSize {
			fluentBufferPool.Put(buf)
		}
	}()
	buf.WriteString(tag)
	for _, r := range records {
		buf.Write(r)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
