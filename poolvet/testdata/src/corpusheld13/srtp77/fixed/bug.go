// Package fixed applies the reviewer's suggestion on pion/srtp#77
// (https://github.com/pion/srtp/pull/77): the pool's New returns a pointer
// to the slice and the writer puts that pointer back.
package fixed

import (
	"io"
	"sync"
)

var bufferpool = sync.Pool{
	New: func() any {
		b := make([]byte, 1460)
		return &b
	},
}

type encryptContext struct {
	key byte
}

func (c *encryptContext) EncryptRTP(dst, plaintext []byte) []byte {
	dst = dst[:len(plaintext)]
	for i, b := range plaintext {
		dst[i] = b ^ c.key
	}
	return dst
}

type SessionWriter struct {
	ctx *encryptContext
	out io.Writer
}

func (w *SessionWriter) WriteRTP(pkt []byte) (int, error) {
	src := bufferpool.Get().(*[]byte)
	enc := w.ctx.EncryptRTP(*src, pkt)
	n, err := w.out.Write(enc)
	bufferpool.Put(src)
	return n, err
}
