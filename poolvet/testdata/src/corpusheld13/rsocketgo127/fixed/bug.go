// Package fixed is the fixed twin of corpusheld13/rsocketgo127: as in
// v0.8.12, BlockSlice keeps a deep clone of each payload, not the pooled
// frame, so releasing the frame no longer affects the returned slice.
package fixed

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

// Payload is an unpooled copy of a frame's content.
type Payload struct {
	Data     []byte
	Metadata []byte
}

func clonePayload(f *PayloadFrame) Payload {
	return Payload{
		Data:     append([]byte(nil), f.Data()...),
		Metadata: append([]byte(nil), f.Metadata()...),
	}
}

type rawFrame struct {
	data, metadata []byte
}

// BlockSlice drains the stream and returns a copy of every payload it saw.
func BlockSlice(stream []rawFrame) []Payload {
	var out []Payload
	for _, raw := range stream {
		f := newPayloadFrame(raw.data, raw.metadata)
		out = append(out, clonePayload(f))
		f.Release()
	}
	return out
}
