// Package bug reproduces the shape of go-git/go-git#602
// (https://github.com/go-git/go-git/pull/602, commit 123cdde6 "Use Sync.Pool
// pointers to optimise memory usage"): ApplyDelta reads the base object into a
// pooled *bytes.Buffer, patches it into a second pooled buffer, then streams the
// result to the target through a 32 KiB copy buffer taken from byteSlicePool.
// That pool held plain []byte values, so byteSlicePool.Put(b) boxed the slice
// header into an interface and allocated on every call. The fix makes the pool
// hold *[]byte and puts the pointer back.
//
// (The capacity guards in putBuffer are not part of this bug; they keep the
// growing bytes.Buffers bounded in both twins.)
//
// Check: nonpointer (at byteSlicePool.Put(b) in ApplyDelta).
package bug

import (
	"bytes"
	"errors"
	"io"
	"sync"
)

type EncodedObject interface {
	Reader() (io.ReadCloser, error)
	Writer() (io.WriteCloser, error)
	SetSize(int64)
}

// CheckClose closes c and stores its error in err if err is still nil.
func CheckClose(c io.Closer, err *error) {
	if cerr := c.Close(); cerr != nil && *err == nil {
		*err = cerr
	}
}

const maxPooledBuffer = 1 << 20

var bufPool = sync.Pool{
	New: func() interface{} {
		return bytes.NewBuffer(nil)
	},
}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuffer {
		return
	}
	bufPool.Put(b)
}

var byteSlicePool = sync.Pool{
	New: func() interface{} {
		b := make([]byte, 32*1024)
		return &b
	},
}

var ErrInvalidDelta = errors.New("invalid delta")

// ApplyDelta writes to target the result of applying delta to base.
func ApplyDelta(target, base EncodedObject, delta []byte) (err error) {
	r, err := base.Reader()
	if err != nil {
		return err
	}

	defer CheckClose(r, &err)

	w, err := target.Writer()
	if err != nil {
		return err
	}

	defer CheckClose(w, &err)

	buf := bufPool.Get().(*bytes.Buffer)
	defer putBuffer(buf)
	buf.Reset()
	_, err = buf.ReadFrom(r)
	if err != nil {
		return err
	}
	src := buf.Bytes()

	dst := bufPool.Get().(*bytes.Buffer)
	defer putBuffer(dst)
	dst.Reset()
	err = patchDelta(dst, src, delta)
	if err != nil {
		return err
	}

	target.SetSize(int64(dst.Len()))

	bufp := byteSlicePool.Get().(*[]byte)
	b := *bufp
	_, err = io.CopyBuffer(w, dst, b)
	byteSlicePool.Put(bufp)
	return err
}

// patchDelta applies a toy delta format: each command byte either copies the
// whole source (0x80) or inserts the next n literal bytes (n < 0x80).
func patchDelta(dst *bytes.Buffer, src, delta []byte) error {
	for len(delta) > 0 {
		cmd := delta[0]
		delta = delta[1:]
		switch {
		case cmd == 0x80:
			dst.Write(src)
		case cmd != 0 && int(cmd) <= len(delta):
			dst.Write(delta[:cmd])
			delta = delta[cmd:]
		default:
			return ErrInvalidDelta
		}
	}
	return nil
}
