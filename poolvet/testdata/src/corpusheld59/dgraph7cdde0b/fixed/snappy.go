// Source: https://github.com/dgraph-io/dgraph/commit/7cdde0b283d1151c760e44e44b1fbcd5ff78746c
// ("fix(conn): don't return snappy reader to pool on EOF while caller holds reference"),
// file conn/snappy.go.
//
// Bug: the gRPC snappy compressor hands a pooled *snappyReader to its caller
// from Decompress. The reader's own Read method put itself back into
// snappyReaderPool as soon as the underlying reader returned io.EOF, although
// the caller (gRPC) still held and could keep using the reader. If another
// goroutine got it from the pool via Decompress, sr.Reset(r) reset the reader
// under the original caller.
//
// Fix: remove the eager pool return in Read; the GC reclaims the reader when
// no references remain.
//
// Check: useafterput (the Put in snappyReader.Read returns an object that was
// handed out by Decompress and is still referenced by the caller)
//
// This is the fixed version: Read no longer puts the reader back.
package fixed

import (
	"io"
	"sync"
)

// Reader is a trimmed stand-in for github.com/golang/snappy.Reader.
type Reader struct {
	r   io.Reader
	err error
	buf []byte
}

func NewReader(r io.Reader) *Reader {
	return &Reader{r: r, buf: make([]byte, 0, 64<<10)}
}

func (r *Reader) Reset(reader io.Reader) {
	r.r = reader
	r.err = nil
	r.buf = r.buf[:0]
}

func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.r.Read(p)
	if err != nil {
		r.err = err
	}
	return n, err
}

// Writer is a trimmed stand-in for github.com/golang/snappy.Writer.
type Writer struct {
	w io.Writer
}

func NewBufferedWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (w *Writer) Reset(writer io.Writer) { w.w = writer }

func (w *Writer) Write(p []byte) (int, error) { return w.w.Write(p) }

func (w *Writer) Close() error { return nil }

// NB: The encoding.Compressor implementation needs to be goroutine
// safe as multiple goroutines may be using the same compressor for
// different streams on the same connection.
var snappyWriterPool sync.Pool
var snappyReaderPool sync.Pool

type snappyWriter struct {
	*Writer
}

func (w *snappyWriter) Close() error {
	defer snappyWriterPool.Put(w)
	return w.Writer.Close()
}

type snappyReader struct {
	*Reader
}

func (r *snappyReader) Read(p []byte) (n int, err error) {
	return r.Reader.Read(p)
}

type snappyCompressor struct {
}

func (snappyCompressor) Name() string {
	return "snappy"
}

func (snappyCompressor) Compress(w io.Writer) (io.WriteCloser, error) {
	sw, ok := snappyWriterPool.Get().(*snappyWriter)
	if !ok {
		sw = &snappyWriter{NewBufferedWriter(w)}
	} else {
		sw.Reset(w)
	}
	return sw, nil
}

func (snappyCompressor) Decompress(r io.Reader) (io.Reader, error) {
	sr, ok := snappyReaderPool.Get().(*snappyReader)
	if !ok {
		sr = &snappyReader{NewReader(r)}
	} else {
		sr.Reset(r)
	}
	return sr, nil
}

// Compressor mirrors google.golang.org/grpc/encoding.Compressor.
type Compressor interface {
	Compress(w io.Writer) (io.WriteCloser, error)
	Decompress(r io.Reader) (io.Reader, error)
	Name() string
}

var registeredCompressor = map[string]Compressor{}

func RegisterCompressor(c Compressor) {
	registeredCompressor[c.Name()] = c
}

func init() {
	RegisterCompressor(snappyCompressor{})
}
