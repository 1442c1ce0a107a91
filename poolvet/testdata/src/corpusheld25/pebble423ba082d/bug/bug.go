// Package bug reproduces the shape of cockroachdb/pebble commit 423ba082d
// (https://github.com/cockroachdb/pebble/commit/423ba082d7abef4a38e5d4d6078a3a99807fd353,
// "sstable/blob: ensure no mutation after returning writer to pool"): blob
// file writers come from writerPool. FileWriter.Close deferred a cleanup
// closure (abort the writable if still set, and mark the writer closed by
// setting err to errClosed when no error was recorded). On the success path
// Close cleans the writer up, clears err and puts it back into writerPool as
// its last step, so the deferred closure then ran on a writer that was
// already in the pool, possibly handed to another compaction by
// NewFileWriter: it read w.w and overwrote w.err of somebody else's writer (a
// data race, and a spurious errClosed for the new owner). The fix removes the
// deferred closure, aborts explicitly on each error path, and sets errClosed
// before the writer goes back to the pool.
//
// Check: useafterput (the deferred closure in Close touches the writer after
// writerPool.Put; the report belongs on its first access to the writer).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

var errClosed = errors.New("blob: writer closed")

const maxPooledBufSize = 1 << 20

// Writable is the destination object.
type Writable interface {
	Write(p []byte) error
	Finish() error
	Abort()
}

// FileWriterStats are returned by Close.
type FileWriterStats struct {
	BlockCount uint32
	ValueCount uint32
	FileLen    uint64
}

type blockHandle struct {
	Offset, Length uint64
}

type compressedBlock struct {
	data []byte
	off  uint64
}

// FileWriter writes a blob file.
type FileWriter struct {
	fileNum      uint64
	w            Writable
	buf          []byte
	blockSize    int
	stats        FileWriterStats
	indexHandles []blockHandle
	err          error
	writeQueue   struct {
		wg  sync.WaitGroup
		ch  chan compressedBlock
		err error
	}
}

var writerPool = sync.Pool{New: func() any { return &FileWriter{} }}

// NewFileWriter takes a writer from the pool.
func NewFileWriter(fn uint64, w Writable, blockSize int) *FileWriter {
	fw := writerPool.Get().(*FileWriter)
	fw.fileNum = fn
	fw.w = w
	fw.blockSize = blockSize
	fw.err = nil
	fw.writeQueue.ch = make(chan compressedBlock)
	fw.writeQueue.wg.Add(1)
	go fw.drainWriteQueue()
	return fw
}

// AddValue appends a value to the current block.
func (w *FileWriter) AddValue(v []byte) {
	if len(w.buf) > 0 && len(w.buf)+len(v) > w.blockSize {
		w.flush()
	}
	w.stats.ValueCount++
	w.buf = append(w.buf, v...)
}

func (w *FileWriter) flush() {
	data := append([]byte(nil), w.buf...)
	w.buf = w.buf[:0]
	w.stats.BlockCount++
	off := w.stats.FileLen
	w.stats.FileLen += uint64(len(data))
	w.writeQueue.ch <- compressedBlock{data: data, off: off}
}

// drainWriteQueue writes finished blocks in its own goroutine.
func (w *FileWriter) drainWriteQueue() {
	defer w.writeQueue.wg.Done()
	for cb := range w.writeQueue.ch {
		if err := w.w.Write(cb.data); err != nil {
			w.writeQueue.err = err
			continue
		}
		w.indexHandles = append(w.indexHandles, blockHandle{Offset: cb.off, Length: uint64(len(cb.data))})
	}
}

// Close finishes writing the blob file.
func (w *FileWriter) Close() (FileWriterStats, error) {
	if w.w == nil {
		return FileWriterStats{}, w.err
	}
	defer func() {
		if w.w != nil { // want `useafterput`
			w.w.Abort()
			w.w = nil
		}
		if w.err == nil {
			w.err = errClosed
		}
	}()
	if len(w.buf) > 0 {
		w.flush()
	}
	close(w.writeQueue.ch)
	w.writeQueue.wg.Wait()
	if w.writeQueue.err != nil {
		w.err = w.writeQueue.err
		return FileWriterStats{}, w.err
	}
	stats := w.stats

	// Write the index block and the footer.
	var index []byte
	for _, h := range w.indexHandles {
		index = binary.LittleEndian.AppendUint64(index, h.Offset)
		index = binary.LittleEndian.AppendUint64(index, h.Length)
	}
	if w.err = w.w.Write(index); w.err != nil {
		return FileWriterStats{}, w.err
	}
	stats.FileLen += uint64(len(index))
	if w.err = w.w.Finish(); w.err != nil {
		return FileWriterStats{}, w.err
	}

	// Clean up w and return it to the pool.
	if cap(w.buf) > maxPooledBufSize {
		w.buf = nil
	} else {
		w.buf = w.buf[:0]
	}
	if cap(w.indexHandles) > maxPooledBufSize/16 {
		w.indexHandles = nil
	} else {
		w.indexHandles = w.indexHandles[:0]
	}
	w.w = nil
	w.stats = FileWriterStats{}
	w.err = nil
	w.writeQueue.ch = nil
	w.writeQueue.err = nil
	writerPool.Put(w)
	return stats, nil
}
