// Source: https://github.com/pingcap/tiflow/issues/8894
// Fix: https://github.com/pingcap/tiflow/pull/8913
// (commit 0410e1d57a6eaa4c5aef774f926ffd67f1d23302, "sink(ticdc): remove
// buffer pool in storage sink worker")
//
// Bug: the cloud storage sink's dmlWorker kept a sync.Pool of *bytes.Buffer.
// writeDataFile takes a buffer, writes every encoded message of a table into
// it (a whole data file, up to the configured file size) and puts it back
// with a deferred Put and no size limit, so the pool keeps buffers grown to
// the largest file ever written; a heap profile showed TiCDC holding too
// much memory in that pool ("All items in the pool are not shrinked").
// Fix: drop the pool; each data file is written from a buffer allocated with
// the known size of the table's messages.
//
// Check: unbounded (the deferred Put returns a buffer grown to a whole data
// file to the pool without any capacity limit)
package bug

import (
	"bytes"
	"context"
	"sync"
)

// Message is an encoded row message.
type Message struct {
	Value    []byte
	Callback func()
	rows     int
}

// GetRowsCount returns the number of rows in the message.
func (m *Message) GetRowsCount() int { return m.rows }

type eventFragment struct {
	seqNumber   uint64
	encodedMsgs []*Message
}

// ExternalStorage is the cloud storage.
type ExternalStorage interface {
	WriteFile(ctx context.Context, name string, data []byte) error
}

// dmlWorker denotes a worker responsible for writing messages to cloud storage.
type dmlWorker struct {
	// worker id
	id         int
	storage    ExternalStorage
	bufferPool sync.Pool
	writeBytes float64
	fileCount  float64
}

func newDMLWorker(id int, storage ExternalStorage) *dmlWorker {
	d := &dmlWorker{
		id:      id,
		storage: storage,
		bufferPool: sync.Pool{
			New: func() interface{} {
				return new(bytes.Buffer)
			},
		},
	}
	return d
}

func (d *dmlWorker) writeDataFile(ctx context.Context, path string, events []eventFragment) error {
	var callbacks []func()

	rowsCnt := 0
	buf := d.bufferPool.Get().(*bytes.Buffer)
	defer d.bufferPool.Put(buf) // want `unbounded`
	buf.Reset()

	for _, frag := range events {
		msgs := frag.encodedMsgs
		for _, msg := range msgs {
			d.writeBytes += float64(len(msg.Value))
			rowsCnt += msg.GetRowsCount()
			buf.Write(msg.Value)
			callbacks = append(callbacks, msg.Callback)
		}
	}
	if err := d.storage.WriteFile(ctx, path, buf.Bytes()); err != nil {
		return err
	}
	d.fileCount++

	for _, cb := range callbacks {
		if cb != nil {
			cb()
		}
	}
	_ = rowsCnt
	return nil
}
