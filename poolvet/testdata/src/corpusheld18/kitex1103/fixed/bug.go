// Package fixed is the fix of cloudwego/kitex#1103
// (https://github.com/cloudwego/kitex/pull/1103): zero() clears every field,
// ioReader and ioWriter included, before the buffer goes back to the pool.
package fixed

import (
	"errors"
	"io"
	"sync"
)

const (
	BitReadable = 1 << iota
	BitWritable
)

// Reader is a zero-copy connection reader.
type Reader interface {
	Next(n int) ([]byte, error)
	Len() int
	Release() error
}

// Writer is a zero-copy connection writer.
type Writer interface {
	Malloc(n int) ([]byte, error)
	Flush() error
}

// ReadWriter is both.
type ReadWriter interface {
	Reader
	Writer
}

var bytebufPool sync.Pool

func init() {
	bytebufPool.New = newNetpollByteBuffer
}

func newNetpollByteBuffer() any {
	return &netpollByteBuffer{}
}

type netpollByteBuffer struct {
	writer   Writer
	reader   Reader
	ioReader io.Reader
	ioWriter io.Writer
	status   int
	readSize int
}

// NewReaderByteBuffer wraps r.
func NewReaderByteBuffer(r Reader) *netpollByteBuffer {
	b := bytebufPool.Get().(*netpollByteBuffer)
	b.reader = r
	if ir, ok := r.(io.Reader); ok {
		b.ioReader = ir
	}
	b.status = BitReadable
	b.readSize = 0
	return b
}

// NewWriterByteBuffer wraps w.
func NewWriterByteBuffer(w Writer) *netpollByteBuffer {
	b := bytebufPool.Get().(*netpollByteBuffer)
	b.writer = w
	if iw, ok := w.(io.Writer); ok {
		b.ioWriter = iw
	}
	b.status = BitWritable
	return b
}

// NewReaderWriterByteBuffer wraps rw.
func NewReaderWriterByteBuffer(rw ReadWriter) *netpollByteBuffer {
	b := bytebufPool.Get().(*netpollByteBuffer)
	b.writer = rw
	b.reader = rw
	if irw, ok := rw.(io.ReadWriter); ok {
		b.ioReader = irw
		b.ioWriter = irw
	}
	b.status = BitWritable | BitReadable
	return b
}

// Next reads n bytes.
func (b *netpollByteBuffer) Next(n int) ([]byte, error) {
	if b.status&BitReadable == 0 {
		return nil, errors.New("unreadable buffer, cannot support Next")
	}
	p, err := b.reader.Next(n)
	if err == nil {
		b.readSize += n
	}
	return p, err
}

// Read implements io.Reader.
func (b *netpollByteBuffer) Read(p []byte) (int, error) {
	if b.status&BitReadable == 0 {
		return -1, errors.New("unreadable buffer, cannot support Read")
	}
	if b.ioReader != nil {
		return b.ioReader.Read(p)
	}
	return -1, errors.New("ioReader is nil")
}

// Write implements io.Writer.
func (b *netpollByteBuffer) Write(p []byte) (int, error) {
	if b.status&BitWritable == 0 {
		return -1, errors.New("unwritable buffer, cannot support Write")
	}
	if b.ioWriter != nil {
		return b.ioWriter.Write(p)
	}
	return -1, errors.New("ioWriter is nil")
}

// Malloc reserves n bytes in the writer.
func (b *netpollByteBuffer) Malloc(n int) ([]byte, error) {
	if b.status&BitWritable == 0 {
		return nil, errors.New("unwritable buffer, cannot support Malloc")
	}
	return b.writer.Malloc(n)
}

// Flush writes the reserved bytes out.
func (b *netpollByteBuffer) Flush() error {
	if b.status&BitWritable == 0 {
		return errors.New("unwritable buffer, cannot support Flush")
	}
	return b.writer.Flush()
}

// ReadLen returns the number of bytes read.
func (b *netpollByteBuffer) ReadLen() int {
	return b.readSize
}

// Release frees what was read and recycles the buffer.
func (b *netpollByteBuffer) Release(e error) (err error) {
	if b.reader != nil {
		err = b.reader.Release()
	}
	b.zero()
	bytebufPool.Put(b)
	return
}

func (b *netpollByteBuffer) zero() {
	b.writer = nil
	b.reader = nil
	b.ioReader = nil
	b.ioWriter = nil
	b.status = 0
	b.readSize = 0
}
