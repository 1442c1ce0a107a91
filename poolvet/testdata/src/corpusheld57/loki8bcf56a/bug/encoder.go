// Source: https://github.com/grafana/loki/commit/8bcf56a588dc07d1f06607ac98441f60c2f5702b
// ("chore(dataobj): fix bug where *bytes.Buffer got reused"); files
// pkg/dataobj/internal/encoding/{pools.go,encoder.go,encoder_logs.go} and
// pkg/dataobj/internal/sections/logs/logs.go.
//
// Bug: LogsEncoder.Commit puts enc.data back into bytesBufferPool (a
// deferred Put) but, unlike Discard, never sets enc.closed = true. The logs
// section always calls logsEnc.Discard() from a deferred closure "for
// safety", expecting it to fail with ErrClosed after a successful Commit.
// Because closed was still false, Discard put the same *bytes.Buffer into
// the pool a second time, so two later encoders shared one buffer.
//
// Fix: Commit sets enc.closed = true before deferring the Put (the same
// one-line fix was applied to StreamsEncoder.Commit).
//
// Check: doubleput (the deferred logsEnc.Discard() in EncodeTo puts enc.data
// a second time after Commit already put it)
package bug

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
)

// pools.go

var bytesBufferPool = sync.Pool{
	New: func() any {
		return new(bytes.Buffer)
	},
}

var (
	ErrClosed         = errors.New("element is closed")
	ErrElementExist   = errors.New("open element already exists")
	errElementNoExist = errors.New("open element does not exist")
)

// encoder.go

type SectionInfo struct {
	MetadataOffset uint32
	MetadataSize   uint32
}

// Encoder encodes a data object.
type Encoder struct {
	startOffset int
	data        *bytes.Buffer
	sections    []*SectionInfo
	curSection  *SectionInfo
}

func (enc *Encoder) OpenLogs() (*LogsEncoder, error) {
	if enc.curSection != nil {
		return nil, ErrElementExist
	}
	enc.curSection = &SectionInfo{}
	return newLogsEncoder(enc, enc.startOffset+enc.data.Len()), nil
}

func (enc *Encoder) append(data, metadata []byte) error {
	if enc.curSection == nil {
		return errElementNoExist
	}

	if len(data) == 0 && len(metadata) == 0 {
		// Section was discarded.
		enc.curSection = nil
		return nil
	}

	enc.curSection.MetadataOffset = uint32(enc.startOffset + enc.data.Len() + len(data))
	enc.curSection.MetadataSize = uint32(len(metadata))

	_, _ = enc.data.Write(data)
	_, _ = enc.data.Write(metadata)

	enc.sections = append(enc.sections, enc.curSection)
	enc.curSection = nil
	return nil
}

// encoder_logs.go

// LogsEncoder encodes an individual logs section in a data object.
type LogsEncoder struct {
	parent *Encoder

	startOffset int  // Byte offset in the file where the column starts.
	closed      bool // true if LogsEncoder has been closed.

	data    *bytes.Buffer
	columns [][]byte // closed columns.
}

func newLogsEncoder(parent *Encoder, offset int) *LogsEncoder {
	buf := bytesBufferPool.Get().(*bytes.Buffer)
	buf.Reset()

	return &LogsEncoder{
		parent:      parent,
		startOffset: offset,

		data: buf,
	}
}

// AppendColumn stands in for OpenColumn/LogsColumnEncoder.Commit.
func (enc *LogsEncoder) AppendColumn(col []byte) error {
	if enc.closed {
		return ErrClosed
	}
	_, _ = enc.data.Write(col)
	enc.columns = append(enc.columns, col)
	return nil
}

// Commit closes the section, flushing all data to the parent element. After
// Commit is called, the LogsEncoder can no longer be modified.
func (enc *LogsEncoder) Commit() error {
	if enc.closed {
		return ErrClosed
	}

	defer bytesBufferPool.Put(enc.data)

	if len(enc.columns) == 0 {
		// No data was written; discard.
		return enc.parent.append(nil, nil)
	}

	metadataBuffer := bytesBufferPool.Get().(*bytes.Buffer)
	metadataBuffer.Reset()
	defer bytesBufferPool.Put(metadataBuffer)

	fmt.Fprintf(metadataBuffer, "columns=%d", len(enc.columns))
	return enc.parent.append(enc.data.Bytes(), metadataBuffer.Bytes())
}

// Discard discards the section, discarding any data written to it. After
// Discard is called, the LogsEncoder can no longer be modified.
func (enc *LogsEncoder) Discard() error {
	if enc.closed {
		return ErrClosed
	}
	enc.closed = true

	defer bytesBufferPool.Put(enc.data)

	return enc.parent.append(nil, nil)
}

// sections/logs/logs.go

type Logs struct {
	columns [][]byte
}

// EncodeTo encodes the set of logs to the provided encoder.
func (l *Logs) EncodeTo(enc *Encoder) error {
	logsEnc, err := enc.OpenLogs()
	if err != nil {
		return fmt.Errorf("opening logs section: %w", err)
	}
	defer func() {
		// Discard on defer for safety. This will return an error if we
		// successfully committed.
		_ = logsEnc.Discard() // want `doubleput`
	}()

	for _, col := range l.columns {
		if err := logsEnc.AppendColumn(col); err != nil {
			return fmt.Errorf("encoding columns: %w", err)
		}
	}

	return logsEnc.Commit()
}
