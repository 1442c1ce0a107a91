// Package fixed is loki#15776 after the fix: Commit marks the encoder closed,
// so the deferred Discard returns ErrClosed without touching the pool.
package fixed

import (
	"bytes"
	"errors"
	"sync"
)

var ErrClosed = errors.New("element is closed")

const maxPooledBuffer = 1 << 20

var bytesBufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	bytesBufferPool.Put(b)
}

// Encoder collects the encoded sections of a data object.
type Encoder struct {
	sections [][]byte
}

// append is called by a child section on Commit (with its data) or on
// Discard (with nil).
func (e *Encoder) append(data []byte) error {
	if data == nil {
		return nil
	}
	e.sections = append(e.sections, bytes.Clone(data))
	return nil
}

// LogsEncoder encodes one logs section into a pooled buffer.
type LogsEncoder struct {
	parent *Encoder
	data   *bytes.Buffer
	closed bool
}

func (e *Encoder) OpenLogs() *LogsEncoder {
	data := bytesBufferPool.Get().(*bytes.Buffer)
	data.Reset()
	return &LogsEncoder{parent: e, data: data}
}

func (enc *LogsEncoder) AppendColumn(col []byte) error {
	if enc.closed {
		return ErrClosed
	}
	_, _ = enc.data.Write(col)
	return nil
}

// Commit hands the section to the parent. After Commit the LogsEncoder can no
// longer be modified.
func (enc *LogsEncoder) Commit() error {
	if enc.closed {
		return ErrClosed
	}
	enc.closed = true

	defer putBuffer(enc.data)

	if enc.data.Len() == 0 {
		// No data was written; discard.
		return enc.parent.append(nil)
	}
	return enc.parent.append(enc.data.Bytes())
}

// Discard drops the section. After Discard the LogsEncoder can no longer be
// modified.
func (enc *LogsEncoder) Discard() error {
	if enc.closed {
		return ErrClosed
	}
	enc.closed = true

	defer putBuffer(enc.data)

	return enc.parent.append(nil)
}

// EncodeLogs writes one logs section. The deferred Discard is meant to
// clean up only when Commit was not reached.
func EncodeLogs(e *Encoder, columns [][]byte) error {
	enc := e.OpenLogs()
	defer enc.Discard()

	for _, col := range columns {
		if err := enc.AppendColumn(col); err != nil {
			return err
		}
	}
	return enc.Commit()
}
