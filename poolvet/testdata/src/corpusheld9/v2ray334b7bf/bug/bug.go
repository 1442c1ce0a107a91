// Package bug reproduces the shape of v2fly/v2ray-core commit 334b7bf5e
// ("fix buffer release time",
// https://github.com/v2fly/v2ray-core/commit/334b7bf5ed27894deda61b4a070fb8db2df6c2e4):
// the pipe's writeMultiBufferInternal released the caller's buffers on any
// state error, including "buffer full". WriteMultiBuffer treats "buffer
// full" as a reason to wait and retry with the same buffers, so on the
// retry the already released buffers were released again (or queued for
// the reader, who releases them once more). The buffers are *Buffer values
// of a sync.Pool here.
//
// Check: doubleput (a callee puts its argument on an error path and the
// caller retries with the same object in a loop; reported at the call in
// the retry loop, where the second Put happens).
package bug

import (
	"errors"
	"io"
	"sync"
)

// Buffer is a pooled fixed-size byte array.
type Buffer struct {
	v   [2048]byte
	end int32
}

var bufferPool = sync.Pool{New: func() any { return new(Buffer) }}

// New takes a buffer from the pool.
func New() *Buffer { return bufferPool.Get().(*Buffer) }

// Release puts the buffer back.
func (b *Buffer) Release() {
	b.end = 0
	bufferPool.Put(b)
}

// Len is the number of bytes held.
func (b *Buffer) Len() int32 { return b.end }

// MultiBuffer is a list of buffers.
type MultiBuffer []*Buffer

// Len sums the lengths of the buffers.
func (mb MultiBuffer) Len() int32 {
	var n int32
	for _, b := range mb {
		n += b.Len()
	}
	return n
}

// Release releases every buffer.
func (mb MultiBuffer) Release() {
	for _, b := range mb {
		b.Release()
	}
}

type state byte

const (
	open state = iota
	closed
)

type pipe struct {
	sync.Mutex
	data        MultiBuffer
	readSignal  chan struct{}
	writeSignal chan struct{}
	done        chan struct{}
	limit       int32
	state       state
}

var errBufferFull = errors.New("buffer full")

func (p *pipe) getState() error {
	switch p.state {
	case open:
		if p.limit >= 0 && p.data.Len() > p.limit {
			return errBufferFull
		}
		return nil
	default:
		return io.ErrClosedPipe
	}
}

func (p *pipe) signalRead() {
	select {
	case p.readSignal <- struct{}{}:
	default:
	}
}

func (p *pipe) writeMultiBufferInternal(mb MultiBuffer) error {
	p.Lock()
	defer p.Unlock()

	if err := p.getState(); err != nil {
		mb.Release()
		return err
	}

	p.data = append(p.data, mb...)
	return nil
}

// WriteMultiBuffer queues mb for the reader, waiting while the pipe is full.
func (p *pipe) WriteMultiBuffer(mb MultiBuffer) error {
	if len(mb) == 0 {
		return nil
	}

	for {
		err := p.writeMultiBufferInternal(mb) // want `doubleput`
		if err == nil || err != errBufferFull {
			p.signalRead()
			return err
		}

		select {
		case <-p.writeSignal:
		case <-p.done:
			return io.ErrClosedPipe
		}
	}
}
