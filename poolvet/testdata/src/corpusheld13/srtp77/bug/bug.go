// Package bug reproduces the shape of pion/srtp#77
// (https://github.com/pion/srtp/pull/77, review comment by OrlandoCo): to
// avoid growing a buffer per packet the writer encrypts each RTP packet into
// a 1460-byte buffer from a sync.Pool of []byte. The reviewer pointed out
// that the pool must store a pointer to the slice, since putting the slice
// itself back boxes its header and allocates on every packet.
//
// Check: nonpointer (a []byte value given to sync.Pool.Put on every packet).
package bug

import (
	"io"
	"sync"
)

var bufferpool = sync.Pool{
	New: func() any {
		return make([]byte, 1460)
	},
}

// encryptContext stands in for the SRTP cipher state.
type encryptContext struct {
	key byte
}

// EncryptRTP writes the protected packet into dst (which must be large
// enough) and returns the used part.
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

// WriteRTP encrypts pkt into a pooled buffer and writes it out.
func (w *SessionWriter) WriteRTP(pkt []byte) (int, error) {
	buf := bufferpool.Get().([]byte)
	enc := w.ctx.EncryptRTP(buf, pkt)
	n, err := w.out.Write(enc)
	bufferpool.Put(buf) // want `nonpointer`
	return n, err
}
