// Package fixed is the fix of apache/pulsar-client-go#1347
// (https://github.com/apache/pulsar-client-go/pull/1347): the buffer goes
// back to the pool after all callbacks have run.
package fixed

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
	for _, cb := range i.callbacks {
		cb(i.buffer.Bytes(), err)
	}
	if i.buffer.Cap() <= 1<<20 {
		buffersPool.Put(i.buffer)
	}
}
