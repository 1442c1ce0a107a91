// Package bug reproduces the shape of rsocket/rsocket-go#127
// (https://github.com/rsocket/rsocket-go/issues/127): Flux.BlockSlice
// collected the payloads it received into a slice, but each payload is a
// pooled frame that the library releases when its part of the request
// lifecycle ends. Calling Data() on an element of the returned slice
// panicked with "frame has been released!"; v0.8.12 deep-clones each
// payload before keeping it.
//
// Check: useafterput (objects kept in a list after they were put back: the
// report belongs at the return that hands the list of released frames to
// the caller).
package bug

import "sync"

const maxFrameCap = 16 << 10

type PayloadFrame struct {
	data     []byte
	metadata []byte
}

var framePool = sync.Pool{New: func() any { return new(PayloadFrame) }}

func newPayloadFrame(data, metadata []byte) *PayloadFrame {
	f := framePool.Get().(*PayloadFrame)
	f.data = append(f.data[:0], data...)
	f.metadata = append(f.metadata[:0], metadata...)
	return f
}

func (f *PayloadFrame) Data() []byte     { return f.data }
func (f *PayloadFrame) Metadata() []byte { return f.metadata }

// Release returns the frame to the pool once the request no longer needs it.
func (f *PayloadFrame) Release() {
	if cap(f.data) > maxFrameCap || cap(f.metadata) > maxFrameCap {
		return
	}
	f.data = f.data[:0]
	f.metadata = f.metadata[:0]
	framePool.Put(f)
}

type rawFrame struct {
	data, metadata []byte
}

// BlockSlice drains the stream and returns every payload it saw.
func BlockSlice(stream []rawFrame) []*PayloadFrame {
	var out []*PayloadFrame
	for _, raw := range stream {
		f := newPayloadFrame(raw.data, raw.metadata)
		out = append(out, f)
		// the subscriber's OnNext has returned: the request lifecycle of
		// this frame ends here
		f.Release()
	}
	return out // want `useafterput`
}
