package interproc

import (
	"bytes"
	"fmt"
	"sync"
)

// A struct holding a bytes.Buffer that its users write to grows like the
// buffer itself.

type bufEncoder struct {
	buf   bytes.Buffer
	depth int
}

var bufEncoderPool = sync.Pool{New: func() any { return new(bufEncoder) }}

func (e *bufEncoder) free() {
	e.buf.Reset()
	e.depth = 0
	bufEncoderPool.Put(e) // want `e \(\*bufEncoder\) is put into the pool without a capacity check, and its field buf grows without bound \(encodeAll writes to it\)`
}

func encodeAll(vals []string) string {
	e := bufEncoderPool.Get().(*bufEncoder)
	for _, v := range vals {
		e.buf.WriteString(v)
	}
	s := e.buf.String()
	e.free()
	return s
}

// Written through fmt, and bounded: silent.

type line struct {
	buf *bytes.Buffer
}

var linePool = sync.Pool{New: func() any { return &line{buf: new(bytes.Buffer)} }}

func format(n int) string {
	l := linePool.Get().(*line)
	l.buf.Reset()
	fmt.Fprintf(l.buf, "%d", n)
	s := l.buf.String()
	if l.buf.Cap() <= 4<<10 {
		linePool.Put(l)
	}
	return s
}

// A *[]byte grown by a function of the package it is given.
var joinPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func appendParts(b *[]byte, parts [][]byte) {
	for _, p := range parts {
		*b = append(*b, p...)
	}
}

func joinLen(parts [][]byte) int {
	bp := joinPool.Get().(*[]byte)
	*bp = (*bp)[:0]
	appendParts(bp, parts)
	n := len(*bp)
	joinPool.Put(bp) // want `bp \(\*\[\]byte\) is put into the pool without a capacity check`
	return n
}
