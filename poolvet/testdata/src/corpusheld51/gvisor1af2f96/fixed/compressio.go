// Source: https://github.com/google/gvisor/commit/1af2f966341dd2daafd6f22730c643aa08c3bc3d
// ("Fix counting in compressio.Writer.Write()", pkg/compressio, used by the
// sentry's save/restore path).
//
// Bug: Writer.Write splits its input into chunks. Full chunks of p are
// scheduled without copying as "inline" buffers (bytes.NewBuffer over p);
// partial data is copied into w.buf, a "pooled" buffer from bufPool. The
// completion callback tells the two apart only by counting: pendingPre (pooled
// chunks already queued when Write started) and pendingInline. When Write
// starts with a non-empty w.buf and fills it, that pooled chunk is scheduled
// but counted nowhere, so the callback takes it for an inline buffer and later
// takes the last inline buffer (which wraps the caller's p) for a pooled one:
// it Resets it and Puts it into bufPool. After Write returns, the caller still
// owns p, and the next bufPool.Get user writes into the caller's memory.
//
// Fix: count a scheduled non-inline w.buf in pendingPre, and restructure the
// callback so only chunks counted in pendingPre are Put back to bufPool (and
// panic if both counts are exhausted).
//
// Check: useafterput (at the callback's bufPool.Put(c.uncompressed), which
// can put a buffer wrapping the caller's slice p, still used after Write)
package fixed

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"io"
	"runtime"
	"sync"
)

var errNewBuffer = errors.New("buffer ready")

var bufPool = sync.Pool{
	New: func() any {
		return bytes.NewBuffer(nil)
	},
}

var chunkPool = sync.Pool{
	New: func() any {
		return new(chunk)
	},
}

// chunk is a unit of work.
type chunk struct {
	// compressed is always returned to the bufPool when work has finished.
	compressed *bytes.Buffer

	// uncompressed is not returned to the bufPool automatically, since it
	// may correspond to an inline slice (provided directly to Write).
	uncompressed *bytes.Buffer
}

func newChunk(compressed *bytes.Buffer, uncompressed *bytes.Buffer) *chunk {
	c := chunkPool.Get().(*chunk)
	if compressed != nil {
		c.compressed = compressed
	} else {
		c.compressed = bufPool.Get().(*bytes.Buffer)
	}
	if uncompressed != nil {
		c.uncompressed = uncompressed
	} else {
		c.uncompressed = bufPool.Get().(*bytes.Buffer)
	}
	return c
}

type result struct {
	*chunk
	err error
}

type worker struct {
	input  chan *chunk
	output chan result
}

func (w *worker) work(level int) {
	defer close(w.output)

	for c := range w.input {
		fw, err := flate.NewWriter(c.compressed, level)
		if err != nil {
			w.output <- result{c, err}
			continue
		}
		if _, err := io.CopyN(fw, c.uncompressed, int64(c.uncompressed.Len())); err != nil {
			w.output <- result{c, err}
			continue
		}
		if err := fw.Close(); err != nil {
			w.output <- result{c, err}
			continue
		}
		w.output <- result{c, nil}
	}
}

type pool struct {
	workers    []worker
	chunkSize  uint32
	mu         sync.Mutex
	nextInput  int
	nextOutput int
	buf        *bytes.Buffer
}

func (p *pool) init(workers int, level int) {
	p.workers = make([]worker, workers)
	for i := 0; i < len(p.workers); i++ {
		p.workers[i] = worker{
			input:  make(chan *chunk, 1),
			output: make(chan result, 1),
		}
		go p.workers[i].work(level)
	}
}

func (p *pool) stop() {
	for i := 0; i < len(p.workers); i++ {
		close(p.workers[i].input)
	}
	p.workers = nil
}

func handleResult(r result, callback func(*chunk) error) error {
	defer func() {
		r.chunk.compressed.Reset()
		bufPool.Put(r.chunk.compressed)
		chunkPool.Put(r.chunk)
	}()
	if r.err != nil {
		return r.err
	}
	return callback(r.chunk)
}

func (p *pool) schedule(c *chunk, callback func(*chunk) error) error {
	for {
		var (
			inputChan  chan *chunk
			outputChan chan result
		)
		if c != nil && len(p.workers) != 0 {
			inputChan = p.workers[(p.nextInput+1)%len(p.workers)].input
		}
		if callback != nil && p.nextOutput != p.nextInput && len(p.workers) != 0 {
			outputChan = p.workers[(p.nextOutput+1)%len(p.workers)].output
		}
		if inputChan == nil && outputChan == nil {
			return nil
		}

		select {
		case inputChan <- c:
			p.nextInput++
			return nil
		case r := <-outputChan:
			p.nextOutput++
			if err := handleResult(r, callback); err != nil {
				return err
			}
		}
	}
}

// Writer is a compressed writer.
type Writer struct {
	pool
	out     io.Writer
	closed  bool
	scratch [4]byte
}

func NewWriter(out io.Writer, chunkSize uint32, level int) (*Writer, error) {
	w := &Writer{
		pool: pool{
			chunkSize: chunkSize,
			buf:       bufPool.Get().(*bytes.Buffer),
		},
		out: out,
	}
	w.init(1+runtime.GOMAXPROCS(0), level)

	binary.BigEndian.PutUint32(w.scratch[:], chunkSize)
	if _, err := w.out.Write(w.scratch[:4]); err != nil {
		return nil, err
	}
	return w, nil
}

func (w *Writer) flush(c *chunk) error {
	l := uint32(c.compressed.Len())
	binary.BigEndian.PutUint32(w.scratch[:], l)
	if _, err := w.out.Write(w.scratch[:4]); err != nil {
		return err
	}
	_, err := io.CopyN(w.out, c.compressed, int64(c.compressed.Len()))
	return err
}

// Write implements io.Writer.Write.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()

	if w.closed {
		return 0, io.ErrUnexpectedEOF
	}

	var (
		pendingPre    = w.nextInput - w.nextOutput
		pendingInline = 0
	)
	callback := func(c *chunk) error {
		if pendingPre > 0 {
			pendingPre--
			err := w.flush(c)
			c.uncompressed.Reset()
			bufPool.Put(c.uncompressed)
			return err
		}
		if pendingInline > 0 {
			pendingInline--
			return w.flush(c)
		}
		panic("both pendingPre and pendingInline exhausted")
	}

	for done := 0; done < len(p); {
		// Construct an inline buffer if we're doing an inline encoding.
		inline := false
		if w.buf.Len() == 0 && len(p) >= done+int(w.chunkSize) && len(p) >= done+bytes.MinRead {
			bufPool.Put(w.buf) // Return to the pool; never scheduled.
			w.buf = bytes.NewBuffer(p[done : done+int(w.chunkSize)])
			done += int(w.chunkSize)
			pendingInline++
			inline = true
		}

		left := int(w.chunkSize) - w.buf.Len()
		if left == 0 {
			if err := w.schedule(newChunk(nil, w.buf), callback); err != nil {
				return done, err
			}
			if !inline {
				pendingPre++
			}
			w.buf = bufPool.Get().(*bytes.Buffer)
			continue
		}

		toWrite := len(p) - done
		if toWrite > left {
			toWrite = left
		}
		n, err := w.buf.Write(p[done : done+toWrite])
		done += n
		if err != nil {
			return done, err
		}
	}

	// Make sure that everything has been flushed, we can't return until
	// all the contents from p have been used.
	for pendingInline > 0 {
		if err := w.schedule(nil, func(c *chunk) error {
			if err := callback(c); err != nil {
				return err
			}
			return errNewBuffer
		}); err != errNewBuffer {
			return len(p), err
		}
	}

	return len(p), nil
}

// Close implements io.Closer.Close.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()

	if w.closed {
		return io.ErrUnexpectedEOF
	}
	w.closed = true
	defer w.stop()

	// The final buffer is guaranteed to not be an inline buffer.
	if w.buf.Len() > 0 {
		if err := w.schedule(newChunk(nil, w.buf), w.flush); err != nil {
			return err
		}
	}
	if err := w.schedule(nil, w.flush); err != nil {
		return err
	}
	if closer, ok := w.out.(io.Closer); ok {
		return closer.Close()
	}
	return nil
}
