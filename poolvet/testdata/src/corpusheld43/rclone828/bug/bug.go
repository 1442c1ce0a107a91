// Package bug reproduces the shape of rclone/rclone#828
// (https://github.com/rclone/rclone/issues/828, fix commit 154e91bb2 "crypt: Fix
// data corruption caused by seeking"): the crypt backend's decrypter takes two
// blocks (the ciphertext read buffer and the plaintext buffer) from a pool of
// fixed-size blocks. When a read reaches the end of the file, finish() records
// io.EOF and hands both blocks back through putBlock, but leaves them in the
// decrypter's fields. Seek then clears the EOF and goes on reading (it discards
// the bytes before the target offset through Read), so the decrypter fills and
// decrypts into blocks that already belong to the pool, and another goroutine
// that took them corrupts the stream.
// Check: useafterput (at the Seek's discard read, which drives Read into the
// blocks that finish() already returned to the pool).
package bug

import (
	"errors"
	"io"
	"io/ioutil"
	"sync"
)

const (
	blockHeaderSize = 16
	blockDataSize   = 64 * 1024
	blockSize       = blockHeaderSize + blockDataSize
	fileHeaderSize  = 32
)

var ErrorFileClosed = errors.New("file already closed")

// OpenAtOffset opens the underlying object at the given offset.
type OpenAtOffset func(offset int64) (io.ReadCloser, error)

type cipher struct {
	buffers sync.Pool // pool of *[]byte of length blockSize
}

func newCipher() *cipher {
	c := &cipher{}
	c.buffers.New = func() interface{} {
		b := make([]byte, blockSize)
		return &b
	}
	return c
}

// getBlock gets a block from the pool of size blockSize
func (c *cipher) getBlock() []byte {
	return *c.buffers.Get().(*[]byte)
}

// putBlock returns a block to the pool of size blockSize
func (c *cipher) putBlock(buf []byte) {
	if len(buf) != blockSize {
		panic("bad blocksize returned to pool")
	}
	c.buffers.Put(&buf)
}

// open stands in for secretbox.Open: it "decrypts" in into out.
func open(out, in []byte) ([]byte, bool) {
	if len(in) < blockHeaderSize {
		return nil, false
	}
	return append(out, in[blockHeaderSize:]...), true
}

// decrypter decrypts an io.ReadCloser on the fly
type decrypter struct {
	rc       io.ReadCloser
	c        *cipher
	buf      []byte
	readBuf  []byte
	bufIndex int
	bufSize  int
	err      error
	open     OpenAtOffset
}

func (c *cipher) newDecrypterSeek(open OpenAtOffset, offset int64) (*decrypter, error) {
	rc, err := open(0)
	if err != nil {
		return nil, err
	}
	fh := &decrypter{
		rc:      rc,
		c:       c,
		buf:     c.getBlock(),
		readBuf: c.getBlock(),
		open:    open,
	}
	if offset != 0 {
		if _, err = fh.Seek(offset, 0); err != nil {
			_ = fh.Close()
			return nil, err
		}
	}
	return fh, nil
}

// Read as per io.Reader
func (fh *decrypter) Read(p []byte) (n int, err error) {
	if fh.err != nil {
		return 0, fh.err
	}
	if fh.bufIndex >= fh.bufSize {
		readBuf := fh.readBuf
		n, err = io.ReadFull(fh.rc, readBuf)
		if err == io.EOF {
			return 0, fh.finish(io.EOF)
		} else if err == io.ErrUnexpectedEOF {
			// Next read will return EOF
		} else if err != nil {
			return 0, fh.finish(err)
		}
		if n <= blockHeaderSize {
			return 0, fh.finish(errors.New("bad block header"))
		}
		block := fh.buf
		if _, ok := open(block[:0], readBuf[:n]); !ok {
			return 0, fh.finish(errors.New("bad block"))
		}
		fh.bufIndex = 0
		fh.bufSize = n - blockHeaderSize
	}
	n = copy(p, fh.buf[fh.bufIndex:fh.bufSize])
	fh.bufIndex += n
	return n, nil
}

// Seek as per io.Seeker
func (fh *decrypter) Seek(offset int64, whence int) (int64, error) {
	if fh.open == nil {
		return 0, fh.finish(errors.New("can't seek - not initialised with newDecrypterSeek"))
	}
	if whence != 0 {
		return 0, fh.finish(errors.New("can only seek from the start"))
	}

	// Reset error or return it if not EOF
	if fh.err == io.EOF {
		fh.err = nil
	} else if fh.err != nil {
		return 0, fh.err
	}

	blocks, discard := offset/blockDataSize, offset%blockDataSize
	underlyingOffset := int64(fileHeaderSize) + blocks*blockSize

	_ = fh.rc.Close()
	fh.rc = nil
	rc, err := fh.open(underlyingOffset)
	if err != nil {
		return 0, fh.finish(err)
	}
	fh.rc = rc

	// Empty the buffer
	fh.bufIndex = 0
	fh.bufSize = 0

	// Discard excess bytes
	_, err = io.CopyN(ioutil.Discard, fh, discard) // want `useafterput`
	if err != nil {
		return 0, fh.finish(err)
	}

	return offset, nil
}

// finish sets the final error and tidies up
func (fh *decrypter) finish(err error) error {
	if fh.err != nil {
		return fh.err
	}
	fh.err = err
	fh.c.putBlock(fh.buf)
	fh.c.putBlock(fh.readBuf)
	return err
}

// Close
func (fh *decrypter) Close() error {
	if fh.err == ErrorFileClosed {
		return fh.err
	}
	// Closed before reading EOF so not finish()ed yet
	if fh.err == nil {
		_ = fh.finish(io.EOF)
	}
	fh.err = ErrorFileClosed
	return fh.rc.Close()
}
