// Package bug reproduces the shape of go-git/go-git#1463
// (https://github.com/go-git/go-git/pull/1463, "plumbing: make objfile closing
// idempotent"): objfile.Writer takes a *zlib.Writer from the shared pool in
// utils/sync when it is created and its Close hands it back with a deferred
// PutZlibWriter. Close was not idempotent, so the common pattern of a
// deferred Close next to an explicit Close on the success path returned the
// same zlib writer to the pool twice; under fast parallel writes two object
// writers then shared one compressor.
//
// Fixed twin (the project's fix): Close returns early (with the error of the
// first call) once the writer is closed, so the zlib writer goes back to the
// pool only once. Unlike upstream, the writer is marked closed before
// zlib.Close so that a failing first Close does not leave the second one
// free to put the writer back again.
//
// Check: doubleput (none expected here).
package bug

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"hash"
	"io"
	"strconv"
	"sync"
)

// ErrClosed is returned by Write after Close.
var ErrClosed = errors.New("objfile: already closed")

// ErrOverflow is returned when more bytes than declared are written.
var ErrOverflow = errors.New("objfile: declared data length exceeded (overflow)")

// --- utils/sync ---

var zlibWriter = sync.Pool{
	New: func() any {
		return zlib.NewWriter(nil)
	},
}

// GetZlibWriter returns a *zlib.Writer from the pool, reset to write to w.
func GetZlibWriter(w io.Writer) *zlib.Writer {
	z := zlibWriter.Get().(*zlib.Writer)
	z.Reset(w)
	return z
}

// PutZlibWriter puts w back into the pool.
func PutZlibWriter(w *zlib.Writer) {
	w.Reset(nil)
	zlibWriter.Put(w)
}

// --- plumbing/format/objfile ---

// Writer writes an object in compressed objfile format.
type Writer struct {
	raw    io.Writer
	hasher hash.Hash
	multi  io.Writer
	zlib   *zlib.Writer

	closed  bool
	pending int64

	closeErr error
}

// NewWriter returns a new Writer writing to w.
func NewWriter(w io.Writer) *Writer {
	zlib := GetZlibWriter(w)
	return &Writer{
		raw:  w,
		zlib: zlib,
	}
}

// WriteHeader writes the type and the size of the object.
func (w *Writer) WriteHeader(t string, size int64) error {
	if size < 0 {
		return errors.New("objfile: negative object size")
	}
	b := []byte(t)
	b = append(b, ' ')
	b = append(b, []byte(strconv.FormatInt(size, 10))...)
	b = append(b, 0)

	defer w.prepareForWrite(b, size)
	_, err := w.zlib.Write(b)
	return err
}

func (w *Writer) prepareForWrite(header []byte, size int64) {
	w.pending = size
	w.hasher = sha1.New()
	w.hasher.Write(header)
	w.multi = io.MultiWriter(w.zlib, w.hasher)
}

// Write writes the object's contents.
func (w *Writer) Write(p []byte) (n int, err error) {
	if w.closed {
		return 0, ErrClosed
	}
	overwrite := false
	if int64(len(p)) > w.pending {
		p = p[0:w.pending]
		overwrite = true
	}
	n, err = w.multi.Write(p)
	w.pending -= int64(n)
	if err == nil && overwrite {
		err = ErrOverflow
	}
	return n, err
}

// Hash returns the hash of the object data written so far.
func (w *Writer) Hash() []byte {
	return w.hasher.Sum(nil)
}

// Close releases any resources consumed by the Writer.
func (w *Writer) Close() error {
	if w.closed {
		return w.closeErr
	}

	defer PutZlibWriter(w.zlib)
	w.closed = true
	if err := w.zlib.Close(); err != nil {
		w.closeErr = err
		return err
	}
	return nil
}

// --- caller, as in the report ---

// Encode returns the hash and the compressed form of an object.
func Encode(objectType string, data []byte) ([]byte, []byte, error) {
	var buffer bytes.Buffer

	writer := NewWriter(&buffer)
	defer writer.Close()

	if err := writer.WriteHeader(objectType, int64(len(data))); err != nil {
		return nil, nil, err
	}

	if n, err := writer.Write(data); err != nil || n != len(data) {
		return nil, nil, err
	}

	if err := writer.Close(); err != nil {
		return nil, nil, err
	}

	return writer.Hash(), buffer.Bytes(), nil
}
