// Package bug reproduces the shape of customerio/esdb#13
// (https://github.com/customerio/esdb/pull/13): blocks.NewFastReader starts a
// read-ahead goroutine that keeps reading from the io.Reader it is given. The
// caller takes that reader, a *bufio.Reader, from a sync.Pool shared across
// files and, in a deferred cleanup, resets it and puts it back into the pool.
// Nothing stops the read-ahead goroutine first, so it goes on reading through
// the reader after it is back in the pool and while another file reuses it,
// which crashes under -race. The fix adds FastReader.Close, which signals the
// goroutine and waits for it, and calls it in the deferred cleanup before the
// reader is reset and put back.
// Check: useafterput (the Put in the deferred cleanup hands the reader back
// while the read-ahead goroutine still reads from it).
package bug

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"sync"
)

type read struct {
	data []byte
	err  error
}

// FastReader reads blocks ahead of the consumer in a background goroutine.
type FastReader struct {
	buffer    *bytes.Buffer
	reads     chan read
	readErr   error
	reader    io.Reader
	blockSize int

	readAheadWg   sync.WaitGroup
	readAheadDone chan bool // readAhead exits when this is closed
}

// NewFastReader wraps r and starts reading ahead of the consumer.
func NewFastReader(ctx context.Context, r io.Reader, blockSize int) *FastReader {
	reader := &FastReader{
		buffer:    new(bytes.Buffer),
		reader:    r,
		blockSize: blockSize,
		reads:     make(chan read, 10),

		readAheadDone: make(chan bool, 1),
	}
	reader.readAheadWg.Add(1)
	go func() {
		defer reader.readAheadWg.Done()
		reader.readAhead(ctx)
	}()
	return reader
}

// Close stops the read-ahead goroutine and waits for it to exit, after which
// the underlying reader is no longer touched.
func (r *FastReader) Close() {
	close(r.readAheadDone)
	r.readAheadWg.Wait()
}

// Read implements io.Reader.
func (r *FastReader) Read(p []byte) (int, error) {
	for r.buffer.Len() < len(p) && r.readErr == nil {
		rd, ok := <-r.reads
		if !ok {
			r.readErr = io.EOF
			break
		}
		r.buffer.Write(rd.data)
		r.readErr = rd.err
	}
	n, _ := r.buffer.Read(p)
	if n == 0 && r.readErr != nil {
		return 0, r.readErr
	}
	return n, nil
}

func (r *FastReader) readAhead(ctx context.Context) {
	defer close(r.reads)
	for {
		block := make([]byte, r.blockSize)
		n, err := io.ReadFull(r.reader, block)
		select {
		case r.reads <- read{block[:n], err}:
		case <-r.readAheadDone:
			return
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

var fileReaderPool = sync.Pool{
	New: func() interface{} { return bufio.NewReaderSize(nil, 1024*1024) },
}

// FirstBlock returns the first n bytes of a stored file.
func FirstBlock(file []byte, blockSize, n int) ([]byte, error) {
	fr := fileReaderPool.Get().(*bufio.Reader)
	fr.Reset(bytes.NewReader(file))

	r := NewFastReader(context.Background(), fr, blockSize)
	defer func() {
		r.Close()
		fr.Reset(nil)
		fileReaderPool.Put(fr)
	}()

	out := make([]byte, n)
	m, err := io.ReadFull(r, out)
	return out[:m], err
}
