// Package bug reproduces the shape of rclone/rclone commit 9172c9b3d
// (https://github.com/rclone/rclone/commit/9172c9b3dd6a819d1c58fc34f33981bdd7e98e02),
// "crypt: reduce allocations": the crypt backend's Cipher keeps a sync.Pool
// of block buffers used by its streaming encrypter and decrypter. The pool
// stored []byte slices, so every putBlock boxed a slice header into an
// interface and allocated, defeating the pool (staticcheck SA6002). The fix
// pools pointers to fixed-size arrays instead.
//
// Check: nonpointer (a []byte is put into the sync.Pool, reported at the Put
// in putBlock).
package bug

import (
	"errors"
	"io"
	"sync"
)

const (
	blockHeaderSize = 16
	blockDataSize   = 64 * 1024
	blockSize       = blockHeaderSize + blockDataSize
)

// Cipher encrypts and decrypts streams block by block.
type Cipher struct {
	dataKey [32]byte
	buffers sync.Pool // encrypt/decrypt buffers
}

func newCipher(key [32]byte) *Cipher {
	c := &Cipher{dataKey: key}
	c.buffers.New = func() any {
		return new([blockSize]byte)
	}
	return c
}

// getBlock gets a block from the pool of size blockSize
func (c *Cipher) getBlock() *[blockSize]byte {
	return c.buffers.Get().(*[blockSize]byte)
}

// putBlock returns a block to the pool of size blockSize
func (c *Cipher) putBlock(buf *[blockSize]byte) {
	c.buffers.Put(buf)
}

func (c *Cipher) seal(dst, src []byte) []byte {
	dst = append(dst, make([]byte, blockHeaderSize)...)
	for i, b := range src {
		dst = append(dst, b^c.dataKey[i%len(c.dataKey)])
	}
	return dst
}

type encrypter struct {
	in       io.Reader
	c        *Cipher
	buf      *[blockSize]byte
	readBuf  *[blockSize]byte
	bufIndex int
	bufSize  int
	err      error
}

func (c *Cipher) newEncrypter(in io.Reader) *encrypter {
	return &encrypter{
		in:      in,
		c:       c,
		buf:     c.getBlock(),
		readBuf: c.getBlock(),
	}
}

func (fh *encrypter) Read(p []byte) (n int, err error) {
	if fh.err != nil {
		return 0, fh.err
	}
	if fh.bufIndex >= fh.bufSize {
		readBuf := (*fh.readBuf)[:blockDataSize]
		n, err = io.ReadFull(fh.in, readBuf)
		if n == 0 {
			return fh.finish(err)
		}
		fh.c.seal((*fh.buf)[:0], readBuf[:n])
		fh.bufIndex = 0
		fh.bufSize = blockHeaderSize + n
	}
	n = copy(p, (*fh.buf)[fh.bufIndex:fh.bufSize])
	fh.bufIndex += n
	return n, nil
}

func (fh *encrypter) finish(err error) (int, error) {
	if fh.err != nil {
		return 0, fh.err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = io.EOF
	}
	fh.err = err
	fh.c.putBlock(fh.buf)
	fh.buf = nil
	fh.c.putBlock(fh.readBuf)
	fh.readBuf = nil
	return 0, err
}
