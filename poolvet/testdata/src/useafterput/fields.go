package useafterput

import (
	"bytes"
	"reflect"
	"sync"
	"unsafe"
)

type pending struct {
	buf       *bytes.Buffer
	callbacks []func([]byte)
}

// The field is loaded again after its object went back to the pool
// (apache/pulsar-client-go#1347).
func (i *pending) doneEarly() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	for _, cb := range i.callbacks {
		cb(i.buf.Bytes()) // want `i.buf is used after it was put back into the pool`
	}
}

// Callbacks first, then the Put: fine.
func (i *pending) doneLate() {
	for _, cb := range i.callbacks {
		cb(i.buf.Bytes())
	}
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
}

// The field gets another buffer before it is used again: fine.
func (i *pending) swap() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	i.buf = new(bytes.Buffer)
	i.buf.WriteString("x")
}

func (i *pending) renew() { i.buf = new(bytes.Buffer) }

// A method of the base may store another buffer into the field: silent.
func (i *pending) renewed() {
	if i.buf.Cap() <= 1<<20 {
		bufPool.Put(i.buf)
	}
	i.renew()
	i.buf.WriteString("x")
}

// The value loaded before a store to the field stays the object: its
// use after the Put is reported even though the field was cleared.
func (i *pending) clearedThenUsed() {
	b := i.buf
	i.buf = nil
	if b.Cap() <= 1<<20 {
		bufPool.Put(b)
	}
	b.WriteString("x") // want `b is used after it was put back into the pool`
}

type packet struct {
	buf  *bytes.Buffer
	size int
}

// Each iteration loads the field of another element: the next iteration's
// load is not the buffer put back (quic-go's sent_packet_handler).
func releaseAll(ps []*packet) int {
	n := 0
	for _, p := range ps {
		n += p.buf.Len()
		if p.buf.Cap() <= 1<<20 {
			bufPool.Put(p.buf)
		}
	}
	return n
}

// The same with elements received from a channel (quic-go's send_queue).
func drain(ch chan *packet, done chan struct{}) int {
	n := 0
	for {
		select {
		case p := <-ch:
			n += p.buf.Len()
			if p.buf.Cap() <= 1<<20 {
				bufPool.Put(p.buf)
			}
		case <-done:
			return n
		}
	}
}

type reader struct{ handle *bytes.Buffer }

// The field got a new buffer before the old one went back: its later loads
// are the new buffer (grpc's ALTS record conn).
func (r *reader) grow() {
	old := r.handle
	r.handle = bufPool.Get().(*bytes.Buffer)
	r.handle.Write(old.Bytes())
	if old.Cap() <= 1<<20 {
		bufPool.Put(old)
	}
	if r.handle.Len() > 0 {
		r.handle.WriteByte(0)
	}
}

// unsafe.String views the pooled bytes: the string changes under the
// caller once the deferred Put gives them to the next user
// (projectdiscovery/utils#711).
func viewString(p *[]byte) string {
	defer slicePool.Put(p)
	*p = append((*p)[:0], "hello"...)
	return unsafe.String(unsafe.SliceData(*p), len(*p)) // want `returned value shares memory with p, which the deferred Put`
}

// A conversion copies: fine.
func copyString(p *[]byte) string {
	defer slicePool.Put(p)
	*p = append((*p)[:0], "hello"...)
	return string(*p)
}

type builder struct{ names []string }

func (b *builder) reset() { b.names = b.names[:0] }

func (b *builder) drop() { b.names = nil }

type segment struct {
	names []string
	n     int
}

// newSegment keeps the builder's slice in the segment it returns.
func newSegment(b *builder, n int) *segment {
	return &segment{names: b.names, n: n}
}

var builderPool = sync.Pool{New: func() any { return new(builder) }}

// The segment shares the builder's slice, which the next user of the
// builder overwrites (blevesearch/bleve#847).
func build(names []string) *segment {
	b := builderPool.Get().(*builder)
	b.names = append(b.names, names...)
	seg := newSegment(b, len(names))
	b.reset()
	builderPool.Put(b)
	return seg // want `b is used after it was put back into the pool`
}

// The builder lets go of the slice first: the segment holds the only
// reference, fine.
func buildDropped(names []string) *segment {
	b := builderPool.Get().(*builder)
	b.names = append(b.names, names...)
	seg := newSegment(b, len(names))
	b.drop()
	builderPool.Put(b)
	return seg
}

// An interior pointer taken through reflect outlives the deferred Put.
func reflectPointer(p *[]byte) unsafe.Pointer {
	defer slicePool.Put(p)
	*p = append((*p)[:0], "hello"...)
	return reflect.ValueOf(*p).UnsafePointer() // want `returned value shares memory with p, which the deferred Put`
}

// Its length is not memory: fine.
func reflectLen(p *[]byte) int {
	defer slicePool.Put(p)
	*p = append((*p)[:0], "hello"...)
	return reflect.ValueOf(*p).Len()
}
