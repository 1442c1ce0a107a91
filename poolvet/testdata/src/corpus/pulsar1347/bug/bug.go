// Package bug reproduces the shape of apache/pulsar-client-go#1347
// (https://github.com/apache/pulsar-client-go/pull/1347), master issue
// #1332: pendingItem.done returned the batch buffer to the pool before the
// send callbacks ran, and the callbacks still read the buffer.
//
// Check: useafterput (the pooled buffer, loaded again from the item, is
// used after the Put).
package bug

import (
	"bytes"
	"sync"
)

var buffersPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type pendingItem struct {
	buffer    *bytes.Buffer
	callbacks []func(payload []byte, err error)
	isDone    bool
}

func newPendingItem() *pendingItem {
	b := buffersPool.Get().(*bytes.Buffer)
	b.Reset()
	return &pendingItem{buffer: b}
}

func (i *pendingItem) done(err error) {
	if i.isDone {
		return
	}
	i.isDone = true
	if i.buffer.Cap() <= 1<<20 {
		buffersPool.Put(i.buffer)
	}
	for _, cb := range i.callbacks {
		cb(i.buffer.Bytes(), err) // want `used after|useafterput`
	}
}
