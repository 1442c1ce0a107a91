package interproc

import (
	"io"
	"sync"
)

// A pooled struct whose []byte field its own method grows by any amount
// (fasthttp#102): the struct is a growable buffer.
type packet struct {
	code uint32
	body []byte
}

func (p *packet) appendBody(b []byte) { p.body = append(p.body, b...) }

var packetPool = sync.Pool{New: func() any { return new(packet) }}

func releasePacket(p *packet) {
	p.code = 0
	p.body = p.body[:0]
	packetPool.Put(p) // want `p \(\*packet\) is put into the pool without a capacity check, and its field body grows without bound \(appendBody appends to it\)`
}

func receive(r io.Reader, handle func([]byte)) {
	p := packetPool.Get().(*packet)
	defer releasePacket(p)
	var chunk [512]byte
	n, _ := r.Read(chunk[:])
	p.appendBody(chunk[:n])
	handle(p.body)
}

// The same with a bound somewhere in the package: silent.
type frame struct{ body []byte }

func (f *frame) appendBody(b []byte) { f.body = append(f.body, b...) }

func (f *frame) release() {
	if cap(f.body) > 1<<20 {
		f.body = nil
	}
}

var framePool = sync.Pool{New: func() any { return new(frame) }}

func releaseFrame(f *frame) {
	f.release()
	f.body = f.body[:0]
	framePool.Put(f)
}

// A struct that only ever receives a fixed number of bytes: silent.
type header struct{ b []byte }

func (h *header) set(x, y byte) { h.b = append(h.b[:0], x, y) }

var headerPool = sync.Pool{New: func() any { return new(header) }}

func releaseHeader(h *header) { headerPool.Put(h) }
