// Package bug reproduces the shape of lestrrat-go/jwx#1905
// (https://github.com/lestrrat-go/jwx/pull/1905, same change on the other
// branch in #1906): jwx keeps its scratch *bytes.Buffer values in a generic
// pool wrapper whose Put runs a per-type destructor before handing the object
// back to sync.Pool. The bytes.Buffer destructor only called Reset, which
// rewinds the length but leaves the old bytes in the backing array, so
// private-key material and plaintext serialized through a pooled buffer
// stayed resident and was handed to the next borrower. The fix zeroes the
// whole backing array in the destructor, as the byte-slice pool already did.
//
// Check: noreset (fixed twin: the destructor scrubs the backing array).
package bug

import (
	"bytes"
	"encoding/base64"
	"sync"
)

const maxPooledBuffer = 64 << 10

// Pool is a typed wrapper around sync.Pool; destroy prepares an object for
// reuse and reports whether it may be kept.
type Pool[T any] struct {
	pool    sync.Pool
	destroy func(T) bool
}

func New[T any](alloc func() any, destroy func(T) bool) *Pool[T] {
	return &Pool[T]{pool: sync.Pool{New: alloc}, destroy: destroy}
}

func (p *Pool[T]) Get() T { return p.pool.Get().(T) }

func (p *Pool[T]) Put(v T) {
	if !p.destroy(v) {
		return
	}
	p.pool.Put(v)
}

var bytesBufferPool = New(allocBytesBuffer, destroyBytesBuffer)

func BytesBuffer() *Pool[*bytes.Buffer] { return bytesBufferPool }

func allocBytesBuffer() any { return &bytes.Buffer{} }

func destroyBytesBuffer(b *bytes.Buffer) bool {
	if b.Cap() > maxPooledBuffer {
		return false
	}
	// Rewind, then zero the whole backing array so no secret bytes
	// survive into the next borrower.
	b.Reset()
	full := b.Bytes()
	clear(full[:cap(full)])
	return true
}

type symmetricKey struct {
	kid    string
	octets []byte
}

// MarshalJSON writes the key, including its secret octets, through a pooled
// buffer and returns a private copy of the result.
func (k *symmetricKey) MarshalJSON() ([]byte, error) {
	buf := BytesBuffer().Get()
	defer BytesBuffer().Put(buf)

	buf.WriteString(`{"kty":"oct","kid":"`)
	buf.WriteString(k.kid)
	buf.WriteString(`","k":"`)
	enc := base64.NewEncoder(base64.RawURLEncoding, buf)
	if _, err := enc.Write(k.octets); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	buf.WriteString(`"}`)

	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	return out, nil
}
