package typemismatch

import (
	"io"
	"sync"
)

// One table of pools per level shared by wrappers and the raw encoders
// they wrap: a Get asserts the raw type and takes a wrapper
// (valyala/fasthttp#1701).
type flusher interface {
	Write(p []byte) (int, error)
	Reset(w io.Writer)
}

type rawEnc struct{ w io.Writer }

func (e *rawEnc) Write(p []byte) (int, error) { return e.w.Write(p) }
func (e *rawEnc) Reset(w io.Writer)           { e.w = w }

type lazyEnc struct {
	dst   io.Writer
	inner flusher
}

func (l *lazyEnc) Write(p []byte) (int, error) {
	if l.inner == nil {
		l.inner = getRaw(l.dst, 1)
	}
	return l.inner.Write(p)
}
func (l *lazyEnc) Reset(w io.Writer) { l.dst, l.inner = w, nil }

var encTable = []*sync.Pool{{}, {}, {}}

func newLazy(w io.Writer) flusher {
	return &lazyEnc{dst: w}
}

func getLazy(w io.Writer, level int) flusher {
	v := encTable[level].Get()
	if v == nil {
		return newLazy(w)
	}
	f := v.(flusher)
	f.Reset(w)
	return f
}

func putLazy(f flusher, level int) {
	encTable[level].Put(f) // want `f may hold a \*lazyEnc here \(made at line 37\), and it is put into a pool of encTable whose Get at line 59 asserts \*rawEnc`
}

func getRaw(w io.Writer, level int) flusher {
	v := encTable[level].Get()
	if v == nil {
		return &rawEnc{w: w}
	}
	e := v.(*rawEnc)
	e.Reset(w)
	return e
}

func writeLazy(w io.Writer, p []byte) (int, error) {
	f := getLazy(w, 1)
	n, err := f.Write(p)
	putLazy(f, 1)
	return n, err
}

// The fix: the raw encoders have their own table; silent.
var lazyTable2 = []*sync.Pool{{}, {}, {}}
var rawTable2 = []*sync.Pool{{}, {}, {}}

func newLazy2(w io.Writer) flusher {
	return &lazyEnc{dst: w}
}

func getLazy2(w io.Writer, level int) flusher {
	v := lazyTable2[level].Get()
	if v == nil {
		return newLazy2(w)
	}
	f := v.(flusher)
	f.Reset(w)
	return f
}

func putLazy2(f flusher, level int) {
	lazyTable2[level].Put(f)
}

func getRaw2(w io.Writer, level int) *rawEnc {
	v := rawTable2[level].Get()
	if v == nil {
		return &rawEnc{w: w}
	}
	e := v.(*rawEnc)
	e.Reset(w)
	return e
}

func writeLazy2(w io.Writer, p []byte) (int, error) {
	f := getLazy2(w, 1)
	n, err := f.Write(p)
	putLazy2(f, 1)
	r := getRaw2(w, 2)
	_ = r
	return n, err
}
