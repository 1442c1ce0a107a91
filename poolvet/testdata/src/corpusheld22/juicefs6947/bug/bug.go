// Package bug reproduces the shape of juicedata/juicefs#6947
// (https://github.com/juicedata/juicefs/pull/6947, commit a8e88de2f "pkg/object: fix pool
// buffer race in chunkedEncrypted"): the chunked decrypting reader takes a chunk buffer from
// a sync.Pool, reads one encrypted chunk into it and opens it with AEAD.Open(ct[:0], ...),
// which decrypts in place, so the plaintext lives inside the pooled buffer. When the caller's
// p is smaller than the plaintext, the remainder plain[n:] is kept in r.buf for the next Read,
// but the deferred Put has already handed the chunk buffer back to the pool, and a concurrent
// Get of another object overwrites the bytes the reader still serves.
// Check: useafterput (the view of the pooled buffer stored into r.buf, which outlives the
// deferred Put).
package bug

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const (
	plainChunkSize  = 1 << 20
	chunkHeaderSize = 4
)

type dataEncryptor struct {
	aead cipher.AEAD
}

// Decrypt opens the sealed data in place: the result aliases ciphertext.
func (e *dataEncryptor) Decrypt(ciphertext []byte) ([]byte, error) {
	ns := e.aead.NonceSize()
	if len(ciphertext) < ns {
		return nil, errors.New("malformed ciphertext")
	}
	nonce := ciphertext[:ns]
	ciphertext = ciphertext[ns:]
	return e.aead.Open(ciphertext[:0], nonce, ciphertext, nil)
}

type chunkedEncrypted struct {
	enc          *dataEncryptor
	encChunkSize int64
	encChunkPool sync.Pool
}

func newChunkedEncrypted(enc *dataEncryptor) *chunkedEncrypted {
	ce := &chunkedEncrypted{enc: enc, encChunkSize: plainChunkSize + chunkHeaderSize + 64}
	size := ce.encChunkSize
	ce.encChunkPool = sync.Pool{New: func() any { buf := make([]byte, size); return &buf }}
	return ce
}

func (e *chunkedEncrypted) Get(r io.ReadCloser, skip int64) io.ReadCloser {
	return &chunkDecryptReader{r: r, enc: e.enc, pool: &e.encChunkPool, skip: skip}
}

type chunkDecryptReader struct {
	r    io.ReadCloser
	enc  *dataEncryptor
	buf  []byte
	pool *sync.Pool
	skip int64
}

func (r *chunkDecryptReader) Read(p []byte) (int, error) {
	if len(r.buf) > 0 {
		n := copy(p, r.buf)
		r.buf = r.buf[n:]
		return n, nil
	}

	chunkBuf := r.pool.Get().(*[]byte)
	defer r.pool.Put(chunkBuf)

	n, err := io.ReadFull(r.r, *chunkBuf)
	chunk := (*chunkBuf)[:n]
	if err != io.ErrUnexpectedEOF && err != nil {
		return 0, err
	}
	if len(chunk) < chunkHeaderSize {
		return 0, errors.New("decrypt: truncated chunk header")
	}
	ctLen := int(binary.BigEndian.Uint32(chunk[:chunkHeaderSize]))
	if chunkHeaderSize+ctLen > len(chunk) {
		return 0, errors.New("decrypt: chunk data truncated")
	}

	plain, decErr := r.enc.Decrypt(chunk[chunkHeaderSize : chunkHeaderSize+ctLen])
	if decErr != nil {
		return 0, decErr
	}

	if r.skip > 0 {
		skip := r.skip
		r.skip = 0
		if skip >= int64(len(plain)) {
			return 0, io.EOF
		}
		plain = plain[skip:]
	}

	n = copy(p, plain)
	if n < len(plain) {
		r.buf = plain[n:] // want `useafterput`
	}
	return n, nil
}

func (r *chunkDecryptReader) Close() error { return r.r.Close() }
