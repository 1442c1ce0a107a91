// Source: https://github.com/lindb/lindb/commit/285732f5d36396877afbc5273acadd3f1f2ee803
// ("[fix]: incorrect usage of bufpool"); files pkg/bufpool/pool.go,
// pkg/stream/writer.go, kv/version/log.go, kv/version/edit_log.go.
//
// Bug: stream.NewBufferWriter(nil) took a *bytes.Buffer from bufpool, and
// the edit-log encoders did `defer writer.ReleaseBuffer()` (Reset + Put back
// to the sync.Pool) and then `return writer.Bytes()`. The returned slice is
// the pooled buffer's memory, which the next GetBuffer user (for instance
// the outer EditLog.marshal writing that very slice) resets and overwrites.
//
// Fix: BufferWriter no longer uses the pool: NewBufferWriter allocates a
// fresh bytes.Buffer, ReleaseBuffer is removed, and the callers drop their
// deferred release.
//
// Check: useafterput (the returns of writer.Bytes() in NewFile.Encode and
// EditLog.marshal hand out memory of a buffer that the deferred
// ReleaseBuffer puts back into bufpool)
package fixed

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"sync"
)

// pkg/bufpool/pool.go

// bufferPool is a set of temporary buffers for storing bytes.Buffer.
var bufferPool = &sync.Pool{New: func() interface{} {
	return &bytes.Buffer{}
}}

// GetBuffer picks a buffer from the pool and then returns it.
func GetBuffer() *bytes.Buffer {
	return bufferPool.Get().(*bytes.Buffer)
}

// PutBuffer returns a buffer to the pool
func PutBuffer(buf *bytes.Buffer) {
	buf.Reset()
	bufferPool.Put(buf)
}

// pkg/stream/writer.go

type writer struct {
	buf *bytes.Buffer

	scratch [binary.MaxVarintLen64]byte
	err     error
}

func (w *writer) PutBytes(v []byte) {
	_, w.err = w.buf.Write(v)
}

func (w *writer) PutVarint32(v int32) {
	w.PutVarint64(int64(v))
}

func (w *writer) PutVarint64(v int64) {
	n := binary.PutVarint(w.scratch[:], v)
	_, w.err = w.buf.Write(w.scratch[:n])
}

func (w *writer) PutUvarint32(v uint32) {
	w.PutUvarint64(uint64(v))
}

func (w *writer) PutUvarint64(v uint64) {
	n := binary.PutUvarint(w.scratch[:], v)
	_, w.err = w.buf.Write(w.scratch[:n])
}

// BufferWriter is a writer for writing data into a buffer
type BufferWriter struct {
	writer
}

// NewBufferWriter creates a binary stream for writing with provided buffer(append write).
func NewBufferWriter(buffer *bytes.Buffer) *BufferWriter {
	if buffer == nil {
		return &BufferWriter{writer{buf: &bytes.Buffer{}}}
	}
	return &BufferWriter{writer{buf: buffer}}
}

// Error returns the error of BufferWriter
func (bw *BufferWriter) Error() error {
	return bw.err
}

// Bytes returns memory buffer data, if error return err
func (bw *BufferWriter) Bytes() ([]byte, error) {
	return bw.buf.Bytes(), bw.Error()
}

// kv/version/log.go

// Log is a metadata edit log entry.
type Log interface {
	Encode() ([]byte, error)
}

// FileMeta is the metadata of a sst file.
type FileMeta struct {
	fileNumber int64
	minKey     uint32
	maxKey     uint32
	fileSize   int32
}

// NewFile add new file into metadata
type NewFile struct {
	level int32
	file  *FileMeta
}

// Encode writes new file data to binary, if error return err
func (n *NewFile) Encode() ([]byte, error) {
	writer := NewBufferWriter(nil)

	writer.PutVarint32(n.level)           // level
	writer.PutVarint64(n.file.fileNumber) // file number
	writer.PutUvarint32(n.file.minKey)    // min key
	writer.PutUvarint32(n.file.maxKey)    // max key
	writer.PutVarint32(n.file.fileSize)   // file size
	return writer.Bytes()
}

var logTypes = map[reflect.Type]int32{
	reflect.TypeOf(&NewFile{}): 1,
}

// kv/version/edit_log.go

// EditLog contains all metadata edit log
type EditLog struct {
	logs     []Log
	familyID int
}

// marshal encodes edit log to binary data
func (el *EditLog) marshal() ([]byte, error) {
	writer := NewBufferWriter(nil)

	// write family id
	writer.PutVarint32(int32(el.familyID))
	// write num of logs
	writer.PutUvarint64(uint64(len(el.logs)))
	// write detail log data
	for _, log := range el.logs {
		logType := logTypes[reflect.TypeOf(log)]
		writer.PutVarint32(logType)
		value, err := log.Encode()
		if err != nil {
			return nil, fmt.Errorf("edit logs encode error: %s", err)
		}
		writer.PutUvarint32(uint32(len(value))) // write log bytes length
		writer.PutBytes(value)                  // write log bytes data
	}
	return writer.Bytes()
}
