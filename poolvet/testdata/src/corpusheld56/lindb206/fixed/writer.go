// Source: https://github.com/lindb/lindb/pull/206
// (commit 285732f5d36396877afbc5273acadd3f1f2ee803, "[fix]: incorrect usage of bufpool")
//
// stream.NewBufferWriter(nil) took a *bytes.Buffer from bufpool (a
// sync.Pool) and BufferWriter.ReleaseBuffer put it back. The Encode
// methods of the kv version edit logs (and EditLog.marshal) did
// `defer writer.ReleaseBuffer()` and then `return writer.Bytes()`, which
// is buf.Bytes(): the returned slice aliases the buffer that the deferred
// release resets and hands back to the pool. EditLog.marshal then wrote
// that slice into another pooled buffer (possibly the very same one),
// corrupting the edit log.
// Fix: NewBufferWriter allocates a fresh bytes.Buffer when none is given,
// ReleaseBuffer is removed and the callers no longer release the buffer.
//
// Check: useafterput (at the `return writer.Bytes()` lines: the slice
// returned from Bytes() outlives the function while the deferred
// ReleaseBuffer puts its buffer back into the pool)
package fixed

import (
	"bytes"
	"encoding/binary"
	"sync"
)

// ---- pkg/bufpool ----

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

// ---- pkg/stream ----

// writer is base writer for writing data
type writer struct {
	buf *bytes.Buffer

	scratch [binary.MaxVarintLen64]byte
	err     error
}

// PutBytes encodes bytes into buf
func (w *writer) PutBytes(v []byte) {
	_, w.err = w.buf.Write(v)
}

// PutVarint32 encodes a int32 into buf
func (w *writer) PutVarint32(v int32) {
	w.PutVarint64(int64(v))
}

// PutVarint64 encodes a int64 into buf
func (w *writer) PutVarint64(v int64) {
	n := binary.PutVarint(w.scratch[:], v)
	_, w.err = w.buf.Write(w.scratch[:n])
}

// PutUvarint32 encodes a uint32 into buf
func (w *writer) PutUvarint32(v uint32) {
	w.PutUvarint64(uint64(v))
}

// PutUvarint64 encodes a uint64 into buf
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
