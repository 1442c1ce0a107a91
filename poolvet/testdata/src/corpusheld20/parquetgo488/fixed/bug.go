// Package bug reproduces the shape of parquet-go/parquet-go#488
// (https://github.com/parquet-go/parquet-go/pull/488, fix commit
// https://github.com/parquet-go/parquet-go/commit/0a0f35435ab57515860ad35adc2b6ae130554d99,
// "fix double put buffer on reset"). With deferred bloom filters, each row group
// takes a buffer from the configured buffer pool, writes the filter into it and
// records it in writer.deferredBloomFilters together with a reset closure that
// gives the buffer back. close() copies the filters to the end of the file and
// calls every reset closure, but leaves the entries in the list. A Writer may be
// Reset after Close to produce another file; writer.reset then walks the same
// stale list and calls each reset closure again, so every deferred buffer goes
// back to the pool a second time and two later row groups can share one buffer.
// The fix empties the list (and its size) at the end of writeDeferredBloomFilters.
// Check: doubleput (the reset closure called again in (*writer).reset after close
// already returned the buffer).
package bug

import (
	"errors"
	"io"
	"sync"
)

// BufferPool hands out scratch buffers for deferred bloom filters.
type BufferPool interface {
	GetBuffer() io.ReadWriteSeeker
	PutBuffer(io.ReadWriteSeeker)
}

type memBuffer struct {
	data []byte
	off  int
}

func (b *memBuffer) Write(p []byte) (int, error) {
	b.data = append(b.data[:b.off], p...)
	b.off += len(p)
	return len(p), nil
}

func (b *memBuffer) Read(p []byte) (int, error) {
	if b.off >= len(b.data) {
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

func (b *memBuffer) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		b.off = int(offset)
	case io.SeekCurrent:
		b.off += int(offset)
	case io.SeekEnd:
		b.off = len(b.data) + int(offset)
	}
	return int64(b.off), nil
}

const maxPooledBufferSize = 1 << 20

type memBufferPool struct {
	pool sync.Pool
}

func (p *memBufferPool) GetBuffer() io.ReadWriteSeeker {
	b, _ := p.pool.Get().(*memBuffer)
	if b == nil {
		b = new(memBuffer)
	}
	b.data, b.off = b.data[:0], 0
	return b
}

func (p *memBufferPool) PutBuffer(buf io.ReadWriteSeeker) {
	if b, _ := buf.(*memBuffer); b != nil && cap(b.data) <= maxPooledBufferSize {
		p.pool.Put(b)
	}
}

// WriterConfig configures a Writer.
type WriterConfig struct {
	DeferredBloomFilters       bool
	DeferredBloomFiltersBuffer BufferPool
}

type columnChunk struct {
	BloomFilterOffset int64
	BloomFilterLength int32
}

type rowGroup struct {
	Columns []columnChunk
}

type deferredBloomFilter struct {
	rowGroup int
	column   int
	buf      io.ReadWriteSeeker
	reset    func()
}

type writer struct {
	output io.Writer
	offset int64
	config *WriterConfig

	rowGroups []rowGroup

	deferredBloomFilters    []deferredBloomFilter
	deferredBloomFilterSize int64
}

func (w *writer) write(p []byte) error {
	n, err := w.output.Write(p)
	w.offset += int64(n)
	return err
}

func (w *writer) reset(output io.Writer) {
	for _, bf := range w.deferredBloomFilters {
		bf.reset()
	}
	w.deferredBloomFilters = w.deferredBloomFilters[:0]
	w.deferredBloomFilterSize = 0
	w.output = output
	w.offset = 0
	w.rowGroups = w.rowGroups[:0]
}

var errNoOutput = errors.New("parquet: writer has no output")

// writeRowGroup writes one row group; filters holds one bloom filter per column.
func (w *writer) writeRowGroup(filters [][]byte) error {
	if w.output == nil {
		return errNoOutput
	}
	rowGroupIndex := len(w.rowGroups)
	w.rowGroups = append(w.rowGroups, rowGroup{Columns: make([]columnChunk, len(filters))})

	for i, filter := range filters {
		if len(filter) == 0 {
			continue
		}
		if w.config.DeferredBloomFilters {
			buf := w.config.DeferredBloomFiltersBuffer.GetBuffer()
			reset := func() { w.config.DeferredBloomFiltersBuffer.PutBuffer(buf) }

			if _, err := buf.Write(filter); err != nil {
				reset()
				return err
			}
			size, err := buf.Seek(0, io.SeekCurrent)
			if err != nil {
				reset()
				return err
			}
			if _, err := buf.Seek(0, io.SeekStart); err != nil {
				reset()
				return err
			}
			w.deferredBloomFilterSize += size
			w.deferredBloomFilters = append(w.deferredBloomFilters, deferredBloomFilter{
				rowGroup: rowGroupIndex,
				column:   i,
				buf:      buf,
				reset:    reset,
			})
			continue
		}
		c := &w.rowGroups[rowGroupIndex].Columns[i]
		c.BloomFilterOffset = w.offset
		if err := w.write(filter); err != nil {
			return err
		}
		c.BloomFilterLength = int32(len(filter))
	}
	return nil
}

func (w *writer) writeDeferredBloomFilters() error {
	for i, bf := range w.deferredBloomFilters {
		c := &w.rowGroups[bf.rowGroup].Columns[bf.column]
		bloomFilterOffset := w.offset
		c.BloomFilterOffset = bloomFilterOffset
		n, err := io.Copy(w.output, bf.buf)
		w.offset += n
		if err != nil {
			bf.reset()
			// Only the filters not yet given back stay for reset.
			w.deferredBloomFilters = w.deferredBloomFilters[i+1:]
			return err
		}
		c.BloomFilterLength = int32(w.offset - bloomFilterOffset)
		bf.reset()
	}
	// Clear the list so a writer reused after close does not give the
	// buffers back a second time.
	w.deferredBloomFilters = w.deferredBloomFilters[:0]
	w.deferredBloomFilterSize = 0
	return nil
}

func (w *writer) close() error {
	if err := w.writeDeferredBloomFilters(); err != nil {
		return err
	}
	return w.write([]byte("PAR1"))
}

// Writer produces parquet-like files and may be reused with Reset.
type Writer struct {
	output io.Writer
	writer *writer
}

// NewWriter returns a Writer that writes to output.
func NewWriter(output io.Writer, config *WriterConfig) *Writer {
	return &Writer{output: output, writer: &writer{output: output, config: config}}
}

// WriteRowGroup writes one row group of bloom filters.
func (w *Writer) WriteRowGroup(filters [][]byte) error {
	return w.writer.writeRowGroup(filters)
}

// Close flushes the deferred bloom filters and the footer.
func (w *Writer) Close() error {
	if w.writer != nil {
		return w.writer.close()
	}
	return nil
}

// Reset lets the writer produce another file; it may be called after Close.
func (w *Writer) Reset(output io.Writer) {
	if w.output = output; w.writer != nil {
		w.writer.reset(w.output)
	}
}

// WriteFiles writes one file per output, reusing a single Writer.
func WriteFiles(outputs []io.Writer, groups [][][]byte, config *WriterConfig) error {
	if len(outputs) == 0 {
		return nil
	}
	w := NewWriter(outputs[0], config)
	for i, out := range outputs {
		if i > 0 {
			w.Reset(out)
		}
		for _, g := range groups {
			if err := w.WriteRowGroup(g); err != nil {
				return err
			}
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}
