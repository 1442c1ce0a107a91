package typemismatch

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func wrongAssert() *strings.Builder {
	return bufPool.Get().(*strings.Builder) // want `bufPool.Get\(\) is asserted to \*strings.Builder, but its New returns \*bytes.Buffer`
}

func rightAssert() *bytes.Buffer {
	return bufPool.Get().(*bytes.Buffer) // want `this Get's result is asserted to`
}

func ifaceAssert() io.Writer {
	return bufPool.Get().(io.Writer)
}

func wrongIface() io.Closer {
	c, _ := bufPool.Get().(io.Closer) // want `asserted to io.Closer, but its New returns \*bytes.Buffer`
	return c
}

func wrongPut(sb *strings.Builder) {
	bufPool.Put(sb) // want `sb of type \*strings.Builder is put into bufPool, whose New returns \*bytes.Buffer`
}

func rightPut(b *bytes.Buffer) {
	bufPool.Put(b)
}

// New with several types, one of them matching.
var mixed = sync.Pool{New: newMixed}

func newMixed() any {
	if len(strings.Repeat("x", 2)) > 1 {
		return new(bytes.Buffer)
	}
	return new(strings.Builder)
}

func mixedOK() {
	sb := mixed.Get().(*strings.Builder)
	mixed.Put(sb)
}

// No New: nothing is known.
var bare sync.Pool

func bareAssert() *strings.Builder {
	sb, _ := bare.Get().(*strings.Builder)
	return sb
}

// A pool variable that is a pointer (var p = &sync.Pool{...}) has the same
// New.

var ptrPool = &sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func ptrPoolGet() []byte {
	if b := ptrPool.Get(); b != nil {
		return b.([]byte)[:0] // want `ptrPool.Get\(\) is asserted to \[\]byte, but its New returns \*\[\]byte`
	}
	return nil
}

func ptrPoolGetFixed() *[]byte {
	return ptrPool.Get().(*[]byte)
}

// Pools in struct fields have a New too.
type server struct {
	bufs  sync.Pool
	lines sync.Pool
}

func newServer() *server {
	s := &server{}
	s.bufs.New = func() any { return new(bytes.Buffer) }
	s.lines = sync.Pool{New: func() any { b := make([]byte, 0, 64); return &b }}
	return s
}

func (s *server) line() []byte {
	return s.lines.Get().([]byte) // want `lines.Get\(\) is asserted to \[\]byte, but its New returns \*\[\]byte`
}

func (s *server) lineFixed() *[]byte {
	return s.lines.Get().(*[]byte)
}

func (s *server) buf() *bytes.Buffer {
	return s.bufs.Get().(*bytes.Buffer)
}
