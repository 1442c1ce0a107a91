package useafterput

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
)

// A size-classed allocator that keeps arrays and puts the array behind the
// caller's slice, after bounds on the slice's capacity only: a call puts
// the slice, so a use after it is a use after a Put (the shape of
// MetaCubeX/mihomo#1286's allocator, with bounds for its exact-class test).
type arrayAlloc struct {
	small, large sync.Pool
}

var arrays = &arrayAlloc{
	small: sync.Pool{New: func() any { return new([64]byte) }},
	large: sync.Pool{New: func() any { return new([1024]byte) }},
}

func (a *arrayAlloc) get(n int) []byte {
	if n <= 64 {
		return a.small.Get().(*[64]byte)[:n]
	}
	return a.large.Get().(*[1024]byte)[:n]
}

func (a *arrayAlloc) put(buf []byte) error {
	if cap(buf) < 64 || cap(buf) > 4096 {
		return nil
	}
	if cap(buf) >= 1024 {
		a.large.Put((*[1024]byte)(buf[:1024]))
	} else {
		a.small.Put((*[64]byte)(buf[:64]))
	}
	return nil
}

func putArray(buf []byte) { _ = arrays.put(buf) }

func readArray(read func([]byte) (int, error), handle func([]byte)) {
	buf := arrays.get(1024)
	n, err := read(buf)
	if err != nil {
		putArray(buf)
	}
	handle(buf[:n]) // want `buf is used after it was put back into the pool`
}

// The fix returns on the error path.
func readArrayFixed(read func([]byte) (int, error), handle func([]byte)) {
	buf := arrays.get(1024)
	n, err := read(buf)
	if err != nil {
		putArray(buf)
		return
	}
	handle(buf[:n])
	putArray(buf)
}

// A put that skips an empty slice puts only full ones: a length is the
// slice's state, not its size class, so the call may keep it and a use
// after it is not reported.
func putFull(buf []byte) {
	if len(buf) == 0 {
		return
	}
	arrays.small.Put((*[64]byte)(buf[:64]))
}

func flushFull(buf []byte, handle func([]byte)) {
	putFull(buf)
	handle(buf[:0])
}

// An allocator that puts only buffers of its exact classes keeps the
// others: a call of it may not put, and a use after it is not reported.
func putExact(buf []byte) {
	switch cap(buf) {
	case 64:
		arrays.small.Put((*[64]byte)(buf[:64]))
	case 1024:
		arrays.large.Put((*[1024]byte)(buf[:1024]))
	}
}

func flushExact(buf []byte, handle func([]byte)) {
	putExact(buf)
	handle(buf)
}

// An allocator that refuses, with an error, a buffer of no class of its
// own: a caller that passes one is wrong anyway, so the call puts every
// buffer the allocator handed out, and a deferred call of it gives back
// what the function returns (Dreamacro/clash#805). cap(buf) == 0 is
// nothing to put.
func strictPut(buf []byte) error {
	if cap(buf) == 0 {
		return nil
	}
	if cap(buf) != 64 {
		return errors.New("strictPut: buffer of no size class")
	}
	arrays.small.Put((*[64]byte)(buf[:64]))
	return nil
}

func packHeader(n byte) []byte {
	ret := arrays.small.Get().(*[64]byte)[:16]
	defer strictPut(ret)
	ret[0] = n
	return ret // want `returned value shares memory with ret, which the deferred Put`
}

// The fix copies out before the Put.
func packHeaderFixed(n byte) []byte {
	buf := arrays.small.Get().(*[64]byte)[:16]
	defer strictPut(buf)
	buf[0] = n
	return append([]byte(nil), buf...)
}

// A Put wrapper that replaces an oversized buffer with a fresh one puts
// the caller's buffer or drops it: either way the caller gave it up
// (trufflehog's buffer pool).
var replBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putReplacing(b *bytes.Buffer) {
	if b.Cap() > 1<<16 {
		b = new(bytes.Buffer)
	} else {
		b.Reset()
	}
	replBufs.Put(b)
}

func flushReplacing(b *bytes.Buffer, write func([]byte)) {
	putReplacing(b)
	write(b.Bytes()) // want `b is used after it was put back into the pool`
}

func flushReplacingFixed(b *bytes.Buffer, write func([]byte)) {
	write(b.Bytes())
	putReplacing(b)
}

// An error on another condition than the buffer's size (a failed write) is
// an outcome the caller handles with the buffer still in hand: the call
// puts only on success, and the caller's use on error is no use after a
// Put (moby/moby#52407's fix).
func logLine(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("logLine: %w", err)
	}
	_ = strictPut(b)
	return nil
}

func copyLineOut(w io.Writer, b []byte, report func([]byte)) {
	if err := logLine(w, b); err != nil {
		report(b)
		_ = strictPut(b)
	}
}
