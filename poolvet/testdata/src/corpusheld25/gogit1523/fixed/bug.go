// Package bug reproduces the shape of go-git/go-git#1523
// (https://github.com/go-git/go-git/pull/1523, commit 1933e50fef77,
// "plumbing: format, Avoid multiple Put into sync.Pool"): FSObject.Reader takes
// a pooled dictionary slice, builds a ZLibReader around it and returns a
// zlibReadCloser that keeps the dictionary twice, once in its own dict field and
// once inside the ZLibReader. Close puts r.dict back into the byte-slice pool and
// then calls PutZlibReader, which puts the ZLibReader's dict (the same slice)
// back again. The fix removes the extra PutByteSlice and makes Close idempotent.
//
// Fixed twin: Close only calls PutZlibReader and runs once, as in the fix.
// Check: doubleput (none expected here).
package bug

import (
	"bytes"
	"compress/zlib"
	"errors"
	"io"
	"os"
	"sync"
)

var (
	size = 32 * 1024

	byteSlice = sync.Pool{
		New: func() interface{} {
			b := make([]byte, size)
			return &b
		},
	}

	zlibInitBytes = []byte{0x78, 0x9c, 0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01}
	zlibReader    = sync.Pool{
		New: func() interface{} {
			return NewZlibReader(nil)
		},
	}
)

// GetByteSlice returns a zeroed 32KiB *[]byte managed by a sync.Pool.
func GetByteSlice() *[]byte {
	buf := byteSlice.Get().(*[]byte)
	if len(*buf) < size {
		*buf = append((*buf)[:cap(*buf)], make([]byte, size-cap(*buf))...)
	}
	b := *buf
	for i := range b {
		b[i] = 0
	}
	return buf
}

// PutByteSlice puts buf back into its sync.Pool.
func PutByteSlice(buf *[]byte) {
	if buf == nil || cap(*buf) > 2*size {
		return
	}
	byteSlice.Put(buf)
}

type zlibResetCloser interface {
	io.ReadCloser
	zlib.Resetter
}

type ZLibReader struct {
	dict   *[]byte
	Reader zlibResetCloser
}

func NewZlibReader(dict *[]byte) *ZLibReader {
	r, _ := zlib.NewReader(bytes.NewReader(zlibInitBytes))
	return &ZLibReader{
		Reader: r.(zlibResetCloser),
		dict:   dict,
	}
}

func (z *ZLibReader) Reset(r io.Reader) error {
	var dict []byte
	if z.dict != nil {
		dict = *z.dict
	}
	return z.Reader.Reset(r, dict)
}

// PutZlibReader closes z and puts it, and its dictionary, back into their pools.
func PutZlibReader(z *ZLibReader) {
	z.Reader.Close()
	PutByteSlice(z.dict)
	z.dict = nil
	zlibReader.Put(z)
}

type Filesystem interface {
	Open(name string) (io.ReadSeekCloser, error)
}

type FSObject struct {
	fs       Filesystem
	pack     io.ReadSeekCloser
	packPath string
	offset   int64
}

// Reader returns a reader of the inflated object content.
func (o *FSObject) Reader() (io.ReadCloser, error) {
	var closer io.Closer
	_, err := o.pack.Seek(o.offset, io.SeekStart)
	if err != nil && errors.Is(err, os.ErrClosed) {
		o.pack, err = o.fs.Open(o.packPath)
		if err != nil {
			return nil, err
		}
		closer = o.pack
		_, err = o.pack.Seek(o.offset, io.SeekStart)
	}
	if err != nil {
		return nil, err
	}

	dict := GetByteSlice()
	zr := NewZlibReader(dict)
	err = zr.Reset(o.pack)
	if err != nil {
		return nil, err
	}
	return &zlibReadCloser{zr, dict, closer, false}, nil
}

type zlibReadCloser struct {
	r      *ZLibReader
	dict   *[]byte
	f      io.Closer
	closed bool
}

// Read reads up to len(p) bytes into p from the data.
func (r *zlibReadCloser) Read(p []byte) (int, error) {
	return r.r.Reader.Read(p)
}

func (r *zlibReadCloser) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	// The dictionary goes back to its pool with the ZLibReader.
	PutZlibReader(r.r)
	if r.f != nil {
		r.f.Close()
	}
	return nil
}
