// Package bug reproduces the shape of dgraph-io/badger commit 7f89bb9f
// ("Fix double free of buf in test",
// https://github.com/dgraph-io/badger/commit/7f89bb9f7298cf26896718899942ad722c9c0e7d;
// an earlier attempt at the same spot was 64d277d8): the incremental
// stream-writer test allocates a buffer, registers
// `defer func() { buf.Release() }()`, writes it, then assigns a second buffer
// to the same variable `buf` and registers a second identical deferred
// closure. Both closures capture the variable, not the value, so at return
// both release the second buffer (a double release that crashed with a cgo
// segfault on macOS) and the first one is never released. The fix gives the
// second buffer its own variable, buf2, with its own deferred release.
// Here the buffer comes from a sync.Pool-backed allocator and Release puts it
// back.
// Fixed twin: the second buffer lives in buf2.
// Check: doubleput (the first deferred closure releases the second buffer a
// second time; report at that deferred call).
package bug

import (
	"errors"
	"sync"
)

type Buffer struct {
	buf      []byte
	tag      string
	released bool
}

var bufferPool = sync.Pool{New: func() any { return &Buffer{} }}

// NewBuffer takes a buffer from the pool and sizes it.
func NewBuffer(capacity int, tag string) *Buffer {
	b := bufferPool.Get().(*Buffer)
	if cap(b.buf) < capacity {
		b.buf = make([]byte, 0, capacity)
	}
	b.buf = b.buf[:0]
	b.tag = tag
	b.released = false
	return b
}

// Release returns the buffer to the pool.
func (b *Buffer) Release() error {
	if b == nil {
		return errors.New("nil buffer")
	}
	b.buf = b.buf[:0]
	b.tag = ""
	b.released = true
	if cap(b.buf) <= 64<<20 {
		bufferPool.Put(b)
	}
	return nil
}

type KV struct {
	Key, Value []byte
	Version    uint64
}

func KVToBuffer(kv *KV, b *Buffer) {
	b.buf = append(b.buf, kv.Key...)
	b.buf = append(b.buf, kv.Value...)
}

type StreamWriter struct {
	written int
}

func (sw *StreamWriter) PrepareIncremental() error { return nil }
func (sw *StreamWriter) Write(b *Buffer) error {
	sw.written += len(b.buf)
	return nil
}
func (sw *StreamWriter) Flush() error { return nil }

func noError(errs *[]error, err error) {
	if err != nil {
		*errs = append(*errs, err)
	}
}

// multipleIncrementalOlderDataFirst mirrors the subtest.
func multipleIncrementalOlderDataFirst() (errs []error) {
	buf := NewBuffer(10<<20, "test")
	defer func() { noError(&errs, buf.Release()) }()
	KVToBuffer(&KV{Key: []byte("a1"), Value: []byte("val1"), Version: 11}, buf)
	sw := &StreamWriter{}
	noError(&errs, sw.PrepareIncremental())
	noError(&errs, sw.Write(buf))
	noError(&errs, sw.Flush())

	buf2 := NewBuffer(10<<20, "test")
	defer func() { noError(&errs, buf2.Release()) }()
	KVToBuffer(&KV{Key: []byte("a2"), Value: []byte("val2"), Version: 9}, buf2)
	sw = &StreamWriter{}
	noError(&errs, sw.PrepareIncremental())
	noError(&errs, sw.Write(buf2))
	noError(&errs, sw.Flush())
	return errs
}
