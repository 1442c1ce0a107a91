// Package bug reproduces the shape of cloudwego/kitex#1103
// (https://github.com/cloudwego/kitex/pull/1103, "fix: reset all fields of
// netpoll byte buffer when recycle it"): the pooled netpollByteBuffer keeps
// the connection it wraps twice, as a netpoll reader/writer and, when the
// connection also implements io.Reader/io.Writer, as ioReader/ioWriter.
// Release clears the buffer with zero(), which forgot ioReader and ioWriter,
// then puts it back: the idle buffer pins the old connection, and a later
// reader-only buffer whose connection is not an io.Reader reads from the
// previous user's connection in Read.
//
// Check: noreset (a pooled object put back still holding references that
// the constructors stored from their parameters; its clearing method forgets
// two of them).
package bug

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
	bytebufPool.Put(b) // want `noreset`
	return
}

func (b *netpollByteBuffer) zero() {
	b.status = 0
	b.writer = nil
	b.reader = nil
	b.readSize = 0
}
