// Package bug is the fixed twin of parquet-go/parquet-go#488
// (https://github.com/parquet-go/parquet-go/pull/488, fix commit 0a0f354): once
// writeDeferredBloomFilters has returned the buffers it empties
// w.deferredBloomFilters, so a later reset of the reused writer has nothing left
// to put back. (The error path also drops the entries, so the buffers already
// returned there are not put back again either.)
// Check: doubleput (none expected here).
package bug

import (
	"errors"
	"io"
	"sync"
)

const maxPooledBufferSize = 1 << 20

// BufferPool hands out scratch buffers for bloom filters.
type BufferPool interface {
	GetBuffer() io.ReadWriteSeeker
	PutBuffer(io.ReadWriteSeeker)
}

type memoryBuffer struct {
	data []byte
	off  int
}

func (b *memoryBuffer) Write(p []byte) (int, error) {
	b.data = append(b.data, p...)
	return len(p), nil
}

func (b *memoryBuffer) Read(p []byte) (int, error) {
	if b.off >= len(b.data) {
		return 0, io.EOF
	}
	n := copy(p, b.data[b.off:])
	b.off += n
	return n, nil
}

func (b *memoryBuffer) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		b.off = int(offset)
	case io.SeekCurrent:
		if offset == 0 {
			return int64(len(b.data)), nil
		}
		b.off += int(offset)
	default:
		return 0, errors.New("unsupported whence")
	}
	return int64(b.off), nil
}

type memoryBufferPool struct{ pool sync.Pool }

func (p *memoryBufferPool) GetBuffer() io.ReadWriteSeeker {
	if b, _ := p.pool.Get().(*memoryBuffer); b != nil {
		return b
	}
	return new(memoryBuffer)
}

func (p *memoryBufferPool) PutBuffer(buf io.ReadWriteSeeker) {
	b, ok := buf.(*memoryBuffer)
	if !ok || cap(b.data) > maxPooledBufferSize {
		return
	}
	b.data, b.off = b.data[:0], 0
	p.pool.Put(b)
}

type WriterConfig struct {
	DeferredBloomFilters       bool
	DeferredBloomFiltersBuffer BufferPool
}

type columnMetaData struct {
	BloomFilterOffset int64
	BloomFilterLength int32
}

type rowGroup struct {
	Columns []columnMetaData
}

type column struct {
	filter []byte
}

func (c *column) writeBloomFilter(w io.Writer) error {
	_, err := w.Write(c.filter)
	return err
}

type offsetWriter struct {
	w      io.Writer
	offset int64
}

func (o *offsetWriter) ReadFrom(r io.Reader) (int64, error) {
	n, err := io.Copy(o.w, r)
	o.offset += n
	return n, err
}

type deferredBloomFilter struct {
	rowGroup int
	column   int
	buf      io.ReadWriteSeeker
	reset    func()
}

type writer struct {
	config    *WriterConfig
	writer    offsetWriter
	rowGroups []rowGroup

	deferredBloomFilters    []deferredBloomFilter
	deferredBloomFilterSize int64
}

func (w *writer) reset(out io.Writer) {
	for _, bf := range w.deferredBloomFilters {
		bf.reset()
	}
	w.deferredBloomFilters = w.deferredBloomFilters[:0]
	w.deferredBloomFilterSize = 0
	w.writer = offsetWriter{w: out}
	w.rowGroups = w.rowGroups[:0]
}

func (w *writer) writeRowGroup(columns []column) error {
	rowGroupIndex := len(w.rowGroups)
	w.rowGroups = append(w.rowGroups, rowGroup{Columns: make([]columnMetaData, len(columns))})
	for i := range columns {
		c := &columns[i]
		if len(c.filter) == 0 {
			continue
		}
		if w.config.DeferredBloomFilters {
			buf := w.config.DeferredBloomFiltersBuffer.GetBuffer()
			reset := func() { w.config.DeferredBloomFiltersBuffer.PutBuffer(buf) }

			if err := c.writeBloomFilter(buf); err != nil {
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
		}
	}
	return nil
}

func (w *writer) writeDeferredBloomFilters() error {
	for k, bf := range w.deferredBloomFilters {
		c := &w.rowGroups[bf.rowGroup].Columns[bf.column]
		bloomFilterOffset := w.writer.offset
		c.BloomFilterOffset = bloomFilterOffset
		if _, err := w.writer.ReadFrom(bf.buf); err != nil {
			bf.reset()
			// the entries up to k have been returned; keep only the rest
			w.deferredBloomFilters = append(w.deferredBloomFilters[:0], w.deferredBloomFilters[k+1:]...)
			return err
		}
		c.BloomFilterLength = int32(w.writer.offset - bloomFilterOffset)
		bf.reset()
	}
	// Clear here so a re-used closed writer doesn't return the buffers again.
	w.deferredBloomFilters = w.deferredBloomFilters[:0]
	w.deferredBloomFilterSize = 0
	return nil
}

func (w *writer) close() error {
	return w.writeDeferredBloomFilters()
}

// Writer is reusable: Close finishes a file, Reset starts the next one.
type Writer struct {
	writer *writer
}

func (w *Writer) Close() error { return w.writer.close() }

func (w *Writer) Reset(out io.Writer) { w.writer.reset(out) }
