package useafterput

import (
	"crypto/cipher"
	"errors"
	"io"
	"sync"
)

// A reader that decrypts chunks in place in a pooled buffer and parks the
// part the caller could not take in r.rest: aead.Open(ct[:0], ...) returns
// the buffer's memory, and the deferred Put gives it back while r.rest
// still points into it (juicedata/juicefs#6947). The store of r.rest on the
// early-return path, which never follows the parking store, does not clear
// it.
var chunks = sync.Pool{New: func() any { b := make([]byte, 4096); return &b }}

type openReader struct {
	r    io.Reader
	aead cipher.AEAD
	rest []byte
}

func (r *openReader) open(ct []byte) ([]byte, error) {
	ns := r.aead.NonceSize()
	if len(ct) < ns {
		return nil, errors.New("short chunk")
	}
	nonce := ct[:ns]
	ct = ct[ns:]
	return r.aead.Open(ct[:0], nonce, ct, nil)
}

func (r *openReader) Read(p []byte) (int, error) {
	if len(r.rest) > 0 {
		n := copy(p, r.rest)
		r.rest = r.rest[n:]
		return n, nil
	}
	buf := chunks.Get().(*[]byte)
	defer chunks.Put(buf)
	n, err := io.ReadFull(r.r, *buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, err
	}
	plain, err := r.open((*buf)[:n])
	if err != nil {
		return 0, err
	}
	n = copy(p, plain)
	if n < len(plain) {
		r.rest = plain[n:] // want `buf is handed to r.rest, which outlives the call here, but the deferred Put`
	}
	return n, nil
}

// The fix keeps a copy.
func (r *openReader) ReadFixed(p []byte) (int, error) {
	if len(r.rest) > 0 {
		n := copy(p, r.rest)
		r.rest = r.rest[n:]
		return n, nil
	}
	buf := chunks.Get().(*[]byte)
	defer chunks.Put(buf)
	n, err := io.ReadFull(r.r, *buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return 0, err
	}
	plain, err := r.open((*buf)[:n])
	if err != nil {
		return 0, err
	}
	n = copy(p, plain)
	if n < len(plain) {
		r.rest = append([]byte(nil), plain[n:]...)
	}
	return n, nil
}

// Parked, then cleared before the deferred Put runs: no report.
func (r *openReader) Peek(p []byte) int {
	buf := chunks.Get().(*[]byte)
	defer chunks.Put(buf)
	n, _ := io.ReadFull(r.r, *buf)
	r.rest = (*buf)[:n]
	m := copy(p, r.rest)
	r.rest = nil
	return m
}
