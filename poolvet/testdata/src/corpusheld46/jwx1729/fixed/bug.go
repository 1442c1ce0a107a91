// Package bug reproduces the shape of lestrrat-go/jwx#1729
// (https://github.com/lestrrat-go/jwx/pull/1729, cherry-picked as #1730):
// jwx's byte-slice pool runs a destructor on Put that wiped only b[:len(b)]
// before storing b[:0]. A caller that does `defer Put(buf)` right after
// GetCapacity and only then reslices buf to its working length hands the
// destructor a zero-length view, so nothing is wiped and the decrypted
// plaintext stays in the pooled backing array for the next borrower. The fix
// scrubs b[:cap(b)].
//
// Check: noreset (fixed twin: the destructor scrubs the full capacity).
package bug

import (
	"crypto/aes"
	"crypto/cipher"
	"errors"
	"sync"
)

const maxPooledSlice = 64 << 10

type Pool[T any] struct {
	pool       sync.Pool
	destructor func(T) T
}

func New[T any](allocator func() T, destructor func(T) T) *Pool[T] {
	return &Pool[T]{
		pool:       sync.Pool{New: func() any { return allocator() }},
		destructor: destructor,
	}
}

func (p *Pool[T]) Get() T { return p.pool.Get().(T) }

func (p *Pool[T]) Put(item T) { p.pool.Put(p.destructor(item)) }

// SlicePool pools *[]T so the stored value is a pointer.
type SlicePool[T any] struct {
	pool *Pool[*[]T]
}

func (p SlicePool[T]) GetCapacity(capacity int) []T {
	s := *p.pool.Get()
	if cap(s) < capacity {
		s = make([]T, 0, capacity)
	}
	return s
}

func (p SlicePool[T]) Put(s []T) {
	if cap(s) > maxPooledSlice {
		return
	}
	p.pool.Put(&s)
}

var byteSlicePool = SlicePool[byte]{pool: New(allocByteSlice, freeByteSlice)}

func ByteSlice() SlicePool[byte] { return byteSlicePool }

func allocByteSlice() *[]byte {
	b := make([]byte, 0, 64)
	return &b
}

func freeByteSlice(p *[]byte) *[]byte {
	b := *p
	clear(b[:cap(b)])
	*p = b[:0]
	return p
}

// openCBC decrypts ciphertext into a pooled scratch buffer and returns a
// private copy of the unpadded plaintext.
func openCBC(key, iv, ciphertext []byte) ([]byte, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(ciphertext) == 0 || len(ciphertext)%block.BlockSize() != 0 {
		return nil, errors.New("invalid ciphertext length")
	}

	buf := ByteSlice().GetCapacity(len(ciphertext))
	defer ByteSlice().Put(buf)
	buf = buf[:len(ciphertext)]

	cipher.NewCBCDecrypter(block, iv).CryptBlocks(buf, ciphertext)

	pad := int(buf[len(buf)-1])
	if pad == 0 || pad > block.BlockSize() || pad > len(buf) {
		return nil, errors.New("invalid padding")
	}
	out := make([]byte, len(buf)-pad)
	copy(out, buf)
	return out, nil
}
