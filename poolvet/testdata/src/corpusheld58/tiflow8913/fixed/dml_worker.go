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
package fixed

import (
	"bytes"
	"context"
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

type singleTableTask struct {
	size uint64
	msgs []*Message
}

func (t *singleTableTask) handleSingleTableEvent(event eventFragment) {
	for _, msg := range event.encodedMsgs {
		t.size += uint64(len(msg.Value))
	}
	t.msgs = append(t.msgs, event.encodedMsgs...)
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
	writeBytes float64
	fileCount  float64
}

func newDMLWorker(id int, storage ExternalStorage) *dmlWorker {
	d := &dmlWorker{
		id:      id,
		storage: storage,
	}
	return d
}

func (d *dmlWorker) writeDataFile(ctx context.Context, path string, task *singleTableTask) error {
	var callbacks []func()
	buf := bytes.NewBuffer(make([]byte, 0, task.size))
	rowsCnt := 0
	for _, msg := range task.msgs {
		d.writeBytes += float64(len(msg.Value))
		rowsCnt += msg.GetRowsCount()
		buf.Write(msg.Value)
		callbacks = append(callbacks, msg.Callback)
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
