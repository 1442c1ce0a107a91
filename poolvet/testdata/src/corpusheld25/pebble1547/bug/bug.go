// Package bug reproduces the shape of cockroachdb/pebble#1547
// (https://github.com/cockroachdb/pebble/pull/1547, commit 69a82fe41
// "sstable: circumvent a dataBlockBuf race in the sstable Writer", fixing
// cockroachdb/cockroach#77194 and #77189): with parallel compression the
// sstable Writer hands each finished data block buffer (a dataBlockBuf taken
// from dataBlockBufPool) to its write queue, whose worker goroutine writes the
// block and then puts the dataBlockBuf back into the pool; the Writer takes a
// fresh one from the pool. After adding every key, addPoint recorded the
// table's largest key in the writer metadata as a sub-slice of the current
// block's curKey buffer, i.e. memory owned by the pooled dataBlockBuf. Once
// that block was flushed and the buffer recycled by the write queue, another
// writer (another compaction or flush) reused it, so the metadata's largest
// key changed under the writer: wrong sstable bounds in the LSM. The PR
// stopped pooling data block buffers; pebble#1565 re-pooled them and clones
// the largest key instead, which is what the fixed twin does.
//
// Check: useafterput (the writer metadata keeps a slice of a pooled block
// buffer that the write queue recycles; the report belongs on the line that
// stores that slice as the largest key).
package bug

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

const maxPooledBlockSize = 256 << 10

// InternalKey is a user key plus an 8-byte trailer.
type InternalKey struct {
	UserKey []byte
	Trailer uint64
}

// WriterMetadata is what the compaction keeps about the output table.
type WriterMetadata struct {
	SmallestPoint InternalKey
	LargestPoint  InternalKey
}

// SetLargestPointKey records k as the largest key.
func (m *WriterMetadata) SetLargestPointKey(k InternalKey) {
	m.LargestPoint = k
}

type blockWriter struct {
	buf      []byte
	curKey   []byte
	nEntries int
}

func (b *blockWriter) add(key InternalKey, value []byte) {
	b.curKey = append(b.curKey[:0], key.UserKey...)
	b.curKey = binary.LittleEndian.AppendUint64(b.curKey, key.Trailer)
	b.buf = binary.AppendUvarint(b.buf, uint64(len(b.curKey)))
	b.buf = append(b.buf, b.curKey...)
	b.buf = binary.AppendUvarint(b.buf, uint64(len(value)))
	b.buf = append(b.buf, value...)
	b.nEntries++
}

func (b *blockWriter) clear() {
	if cap(b.buf) > maxPooledBlockSize {
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
	b.curKey = b.curKey[:0]
	b.nEntries = 0
}

// dataBlockBuf holds the state needed to write one data block.
type dataBlockBuf struct {
	dataBlock blockWriter
}

func (d *dataBlockBuf) clear() {
	d.dataBlock.clear()
}

var dataBlockBufPool = sync.Pool{New: func() any { return &dataBlockBuf{} }}

func newDataBlockBuf() *dataBlockBuf {
	return dataBlockBufPool.Get().(*dataBlockBuf)
}

type writeTask struct {
	buf *dataBlockBuf
}

// writeQueue writes finished blocks in its own goroutine.
type writeQueue struct {
	tasks chan *writeTask
	wg    sync.WaitGroup
	out   io.Writer
}

func newWriteQueue(out io.Writer) *writeQueue {
	q := &writeQueue{tasks: make(chan *writeTask, 8), out: out}
	q.wg.Add(1)
	go q.runWorker()
	return q
}

func (q *writeQueue) runWorker() {
	defer q.wg.Done()
	for task := range q.tasks {
		_, _ = q.out.Write(task.buf.dataBlock.buf)
		q.releaseBuffers(task)
	}
}

func (q *writeQueue) releaseBuffers(task *writeTask) {
	task.buf.clear()
	dataBlockBufPool.Put(task.buf)
	task.buf = nil
}

func (q *writeQueue) addSync(task *writeTask) {
	q.tasks <- task
}

func (q *writeQueue) finish() {
	close(q.tasks)
	q.wg.Wait()
}

// Writer builds an sstable.
type Writer struct {
	meta         WriterMetadata
	dataBlockBuf *dataBlockBuf
	queue        *writeQueue
	blockSize    int
	compare      func(a, b []byte) int
}

func NewWriter(out io.Writer, blockSize int) *Writer {
	return &Writer{
		dataBlockBuf: newDataBlockBuf(),
		queue:        newWriteQueue(out),
		blockSize:    blockSize,
		compare:      bytes.Compare,
	}
}

func (w *Writer) maybeFlush() {
	if len(w.dataBlockBuf.dataBlock.buf) < w.blockSize {
		return
	}
	task := &writeTask{buf: w.dataBlockBuf}
	w.dataBlockBuf = nil
	w.queue.addSync(task)
	w.dataBlockBuf = newDataBlockBuf()
}

func (w *Writer) addPoint(key InternalKey, value []byte) error {
	if w.meta.LargestPoint.UserKey != nil {
		if w.compare(w.meta.LargestPoint.UserKey, key.UserKey) > 0 {
			return io.ErrUnexpectedEOF
		}
	}

	w.maybeFlush()
	w.dataBlockBuf.dataBlock.add(key, value)

	curKey := w.dataBlockBuf.dataBlock.curKey
	k := InternalKey{
		// curKey holds the most recently added key of the block.
		UserKey: curKey[:len(curKey)-8],
		Trailer: key.Trailer,
	}
	w.meta.SetLargestPointKey(k) // want `useafterput`
	if w.meta.SmallestPoint.UserKey == nil {
		w.meta.SmallestPoint = InternalKey{
			UserKey: append([]byte(nil), k.UserKey...),
			Trailer: k.Trailer,
		}
	}
	return nil
}

// Close flushes the last block and returns the table metadata.
func (w *Writer) Close() (*WriterMetadata, error) {
	if w.dataBlockBuf.dataBlock.nEntries > 0 {
		w.queue.addSync(&writeTask{buf: w.dataBlockBuf})
	} else {
		w.dataBlockBuf.clear()
		dataBlockBufPool.Put(w.dataBlockBuf)
	}
	w.dataBlockBuf = nil
	w.queue.finish()
	return &w.meta, nil
}
