// Package bug reproduces the shape of pion/stun commit 2f6473e
// (https://github.com/pion/stun/commit/2f6473e01d9e989059b4f8ae84f7d7c75a0675cd):
// the internal HMAC-SHA1 used for MESSAGE-INTEGRITY is pooled. AcquireSHA1
// takes an hmac from the pool and calls resetTo(key), which copies the new key
// over the ipad/opad blocks without zeroing them first. When the new key is
// shorter than the previous one, the tail of the pads still holds the bytes of
// the key of the previous user, so the integrity value is computed with a
// mixed, stale key. The fix zeroes ipad and opad in resetTo.
// Check: noreset (fixed twin: resetTo zeroes both pads before copying the key).
package bug

import (
	"crypto/sha1"
	"hash"
	"sync"
)

type hmac struct {
	size         int
	blocksize    int
	opad, ipad   []byte
	outer, inner hash.Hash
}

func newHMAC(h func() hash.Hash, key []byte) *hmac {
	hm := &hmac{outer: h(), inner: h()}
	hm.size = hm.inner.Size()
	hm.blocksize = hm.inner.BlockSize()
	hm.ipad = make([]byte, hm.blocksize)
	hm.opad = make([]byte, hm.blocksize)
	hm.resetTo(key)
	return hm
}

func (h *hmac) Sum(in []byte) []byte {
	n := len(in)
	in = h.inner.Sum(in)
	h.outer.Reset()
	h.outer.Write(h.opad)
	h.outer.Write(in[n:])
	return h.outer.Sum(in[:n])
}

func (h *hmac) Write(p []byte) (int, error) { return h.inner.Write(p) }

func (h *hmac) Size() int { return h.size }

func (h *hmac) BlockSize() int { return h.blocksize }

func (h *hmac) Reset() {
	h.inner.Reset()
	h.inner.Write(h.ipad)
}

func (h *hmac) resetTo(key []byte) {
	h.outer.Reset()
	h.inner.Reset()
	h.size = h.inner.Size()
	h.blocksize = h.inner.BlockSize()
	setZeroes(h.ipad)
	setZeroes(h.opad)
	if len(key) > h.blocksize {
		h.outer.Write(key)
		key = h.outer.Sum(nil)
	}
	copy(h.ipad, key)
	copy(h.opad, key)
	for i := range h.ipad {
		h.ipad[i] ^= 0x36
	}
	for i := range h.opad {
		h.opad[i] ^= 0x5c
	}
	h.inner.Write(h.ipad)
}

func setZeroes(b []byte) {
	for i := range b {
		b[i] = 0
	}
}

var hmacSHA1Pool = &sync.Pool{
	New: func() interface{} {
		return newHMAC(sha1.New, make([]byte, sha1.BlockSize))
	},
}

// AcquireSHA1 returns an HMAC-SHA1 keyed with key, taken from the pool.
func AcquireSHA1(key []byte) hash.Hash {
	h := hmacSHA1Pool.Get().(*hmac)
	h.resetTo(key)
	return h
}

// PutSHA1 returns h to the pool.
func PutSHA1(h hash.Hash) {
	hm := h.(*hmac)
	hmacSHA1Pool.Put(hm)
}

// Integrity computes the MESSAGE-INTEGRITY value of raw with key.
func Integrity(key, raw []byte) []byte {
	mac := AcquireSHA1(key)
	mac.Write(raw)
	v := mac.Sum(nil)
	PutSHA1(mac)
	return v
}
