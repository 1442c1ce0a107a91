// Package usewrap misuses the wrappers of package wrap, which it sees only
// through facts.
package usewrap

import (
	"bytes"

	"wrap"
)

func afterRelease() int {
	b := wrap.GetBuffer()
	b.WriteString("x")
	wrap.ReleaseBuffer(b)
	return b.Len() // want `b is used after it was put back into the pool at line 14`
}

func afterRelease2() {
	b := wrap.GetBuffer()
	wrap.Release2(b)
	wrap.Release2(b) // want `b is put into the pool twice`
}

func bytesAfterFree() []byte {
	buf := wrap.NewBuffer()
	defer buf.Free()
	buf.B = append(buf.B, "hello"...)
	return buf.Bytes() // want `returned value shares memory with buf, which the deferred Put at line 26`
}

func copyBeforeFree() []byte {
	buf := wrap.NewBuffer()
	defer buf.Free()
	buf.B = append(buf.B, "hello"...)
	return bytes.Clone(buf.Bytes())
}

var bufs = wrap.New(func() *wrap.Buffer { return new(wrap.Buffer) })

// Generic wrapper methods.
func genericAfterPut() []byte {
	b := bufs.Get()
	b.B = append(b.B[:0], "x"...)
	bufs.Put(b)
	return b.B // want `b is used after it was put back into the pool`
}

func genericOK() int {
	b := bufs.Get()
	b.B = append(b.B[:0], "x"...)
	n := len(b.B)
	bufs.Put(b)
	return n
}

// A local method wrapper, fmt's pp.free style.
type printer struct {
	buf []byte
}

var printers = wrap.New(func() *printer { return new(printer) })

func (p *printer) free() {
	if cap(p.buf) > 64<<10 {
		return
	}
	p.buf = p.buf[:0]
	printers.Put(p)
}

func sprint(s string) string {
	p := printers.Get()
	p.buf = append(p.buf, s...)
	out := string(p.buf)
	p.free()
	return out
}

func sprintBad(s string) []byte {
	p := printers.Get()
	p.buf = append(p.buf, s...)
	p.free()
	return p.buf // want `p is used after it was put back into the pool at line 82`
}
