// Package bug reproduces the shape of XTLS/Xray-core#1515 (https://github.com/XTLS/Xray-core/issues/1515):
// the VLESS/Trojan inbound Process took its "first" read buffer from the
// buffer pool and deferred its Release, but the buffer was also wrapped in a
// BufferedReader that the request-forwarding goroutine started by task.Run
// keeps reading. When the response side fails (or the context is done),
// task.Run returns early, Process returns, the deferred Release puts the
// bytes back into the pool, and the still-running request goroutine reads
// memory that another connection now owns (panics "extending out of bound" /
// corrupted payloads). Fixed in #1536 by allocating "first" outside the pool.
// Check: useafterput (fixed twin: "first" is a plain allocation that the
// goroutines may keep using; nothing is released while they run).
package bug

import (
	"context"
	"errors"
	"io"
	"sync"
)

// Size is the size of a pooled buffer.
const Size = 8192

var pool = sync.Pool{New: func() any { b := make([]byte, Size); return &b }}

// Buffer is a recyclable byte buffer.
type Buffer struct {
	v     *[]byte
	start int
	end   int
}

// New takes a buffer from the pool.
func New() *Buffer {
	return &Buffer{v: pool.Get().(*[]byte)}
}

// FromBytes wraps a caller-owned slice; it never came from the pool.
func FromBytes(b []byte) *Buffer {
	return &Buffer{v: &b, end: len(b)}
}

// Release gives the bytes back to the pool.
func (b *Buffer) Release() {
	if b == nil || b.v == nil {
		return
	}
	p := b.v
	b.v = nil
	b.Clear()
	pool.Put(p)
}

// Clear empties the buffer.
func (b *Buffer) Clear() { b.start, b.end = 0, 0 }

// Bytes is the unread content.
func (b *Buffer) Bytes() []byte { return (*b.v)[b.start:b.end] }

// Len is the unread length.
func (b *Buffer) Len() int { return b.end - b.start }

// ReadFrom fills the buffer once from r.
func (b *Buffer) ReadFrom(r io.Reader) (int64, error) {
	n, err := r.Read((*b.v)[b.end:])
	b.end += n
	return int64(n), err
}

// Read drains the buffer.
func (b *Buffer) Read(p []byte) (int, error) {
	n := copy(p, (*b.v)[b.start:b.end])
	b.start += n
	return n, nil
}

// MultiBuffer is a list of buffers.
type MultiBuffer []*Buffer

// BufferedReader serves the buffered bytes first, then the underlying reader.
type BufferedReader struct {
	Reader io.Reader
	Buffer MultiBuffer
}

func (r *BufferedReader) Read(p []byte) (int, error) {
	for len(r.Buffer) > 0 {
		b := r.Buffer[0]
		if b.Len() == 0 {
			r.Buffer = r.Buffer[1:]
			continue
		}
		return b.Read(p)
	}
	return r.Reader.Read(p)
}

// Run runs the tasks in goroutines and returns at the first failure or when
// ctx is done, without waiting for the other tasks (as common/task.Run).
func Run(ctx context.Context, tasks ...func() error) error {
	done := make(chan error, len(tasks))
	for _, t := range tasks {
		go func(f func() error) { done <- f() }(t)
	}
	for range tasks {
		select {
		case err := <-done:
			if err != nil {
				return err
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// Handler is the inbound handler.
type Handler struct{}

// Process serves one inbound connection.
func (h *Handler) Process(ctx context.Context, connection io.ReadWriter, link io.ReadWriter) error {
	first := FromBytes(make([]byte, Size))
	first.Clear()

	firstLen, _ := first.ReadFrom(connection)
	if firstLen == 0 {
		return errors.New("empty first packet")
	}

	reader := &BufferedReader{
		Reader: connection,
		Buffer: MultiBuffer{first},
	}

	postRequest := func() error {
		if _, err := io.Copy(link, reader); err != nil {
			return errors.New("failed to transfer request payload")
		}
		return nil
	}
	getResponse := func() error {
		if _, err := io.Copy(connection, link); err != nil {
			return errors.New("failed to transfer response payload")
		}
		return nil
	}

	if err := Run(ctx, postRequest, getResponse); err != nil {
		return errors.New("connection ends")
	}
	return nil
}
