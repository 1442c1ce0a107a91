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

// A pooled map filled in a loop keeps its buckets after clear.
var countPool = sync.Pool{New: func() any { return map[string]int{} }}

func distinct(ws []string) int {
	m := countPool.Get().(map[string]int)
	for _, w := range ws {
		m[w]++
	}
	n := len(m)
	clear(m)
	countPool.Put(m) // want `m \(map\[string\]int\) is put into the pool without a size check: a map keeps its buckets after clear`
	return n
}

func distinctBounded(ws []string) int {
	m := countPool.Get().(map[string]int)
	for _, w := range ws {
		m[w]++
	}
	n := len(m)
	clear(m)
	if n <= 1024 {
		countPool.Put(m)
	}
	return n
}

// Put(b[:0]) of a []byte that grew in a loop.
var rawPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func rawJoin(parts [][]byte) int {
	bp := rawPool.Get().(*[]byte)
	b := (*bp)[:0]
	for _, p := range parts {
		b = append(b, p...)
	}
	n := len(b)
	*bp = b[:0]
	rawPool.Put(bp) // want `bp \(\*\[\]byte\) is put into the pool without a capacity check`
	return n
}

var bytesPool = sync.Pool{New: func() any { return make([]byte, 0, 1024) }}

func bytesJoin(parts [][]byte) int {
	b := bytesPool.Get().([]byte)
	for _, p := range parts {
		b = append(b, p...)
	}
	n := len(b)
	bytesPool.Put(b[:0]) // want `b\[:0\] \(\[\]byte\) is put into the pool without a capacity check`
	return n
}

// A Put wrapper that takes any object: the buffer is judged at the call.
type resetter interface{ Reset() }

type objectPool struct{ p sync.Pool }

func (o *objectPool) put(x resetter) {
	x.Reset()
	o.p.Put(x)
}

var objects = &objectPool{}

func frameAny(payload []byte) []byte {
	b, _ := objects.p.Get().(*bytes.Buffer)
	if b == nil {
		b = new(bytes.Buffer)
	}
	b.Write(payload)
	out := append([]byte(nil), b.Bytes()...)
	objects.put(b) // want `b \(\*bytes.Buffer\) is put into the pool through put, which takes any object, without a capacity check`
	return out
}
