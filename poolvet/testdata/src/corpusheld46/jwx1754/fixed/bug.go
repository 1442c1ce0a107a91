// Package bug reproduces the shape of lestrrat-go/jwx#1754
// (https://github.com/lestrrat-go/jwx/pull/1754): jwx pooled *big.Int values
// behind its generic pool wrapper, whose Put runs a destructor first. The
// big.Int destructor only did SetInt64(0), which sets the length of the
// magnitude to zero but keeps its word array, so the previous value (an RSA
// exponent, ECDSA signature components, potentially secret material) stayed
// resident in the pool and was handed to the next borrower. The fix drops the
// big.Int pool and allocates with new(big.Int).SetBytes at each call site.
//
// Check: noreset (fixed twin: no big.Int pool; the generic wrapper stays for
// other types).
package bug

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"errors"
	"math/big"
	"sync"
)

// Pool is a typed wrapper around sync.Pool. The destructor must bring an
// item back to a clean state before it is stored again.
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

func buildRSAPublicKey(n, e []byte) (*rsa.PublicKey, error) {
	bie := new(big.Int).SetBytes(e)
	if !bie.IsInt64() || bie.Sign() <= 0 {
		return nil, errors.New("invalid public exponent")
	}
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(bie.Int64())}, nil
}

func verifyECDSA(pub *ecdsa.PublicKey, digest, signature []byte) error {
	keySize := (pub.Curve.Params().BitSize + 7) / 8
	if len(signature) != 2*keySize {
		return errors.New("invalid signature length")
	}

	r := new(big.Int).SetBytes(signature[:keySize])
	s := new(big.Int).SetBytes(signature[keySize:])
	if !ecdsa.Verify(pub, digest, r, s) {
		return errors.New("failed to verify signature")
	}
	return nil
}
