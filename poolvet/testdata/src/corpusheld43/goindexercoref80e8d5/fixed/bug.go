// Package bug reproduces the shape of ipni/go-indexer-core commit f80e8d5
// ("Fix race condition when borrowing keyer in pebble",
// https://github.com/ipni/go-indexer-core/commit/f80e8d584c1fca2207dc9159552bfe3a71d035e5):
// the pebble store leases a *blake3Keyer from a sync.Pool; Keyer.Close resets
// the hasher and puts it back. store.Put computed the value key and closed the
// keyer right away, but then kept using the same keyer in the loop that builds
// the multihash keys, and closed it a second time after the loop. A concurrent
// Put could lease the keyer in between (a race on its hasher and pool), and
// the keyer ended up in the pool twice. The fix drops the early Close and
// closes the keyer once, on every return path.
// Fixed twin: the keyer is closed once, after its last use.
// Check: useafterput (first use of the keyer after its Close, in the loop) and
// doubleput (the second Close after the loop).
package bug

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"hash"
	"sort"
	"sync"
)

const pooledKeyMaxCap = 64

type pool struct {
	keyerPool sync.Pool
	keyPool   sync.Pool
}

func newPool() *pool {
	var p pool
	p.keyPool.New = func() any {
		return &key{buf: make([]byte, 0, pooledKeyMaxCap), p: &p}
	}
	p.keyerPool.New = func() any {
		return &blake3Keyer{hasher: sha256.New(), p: &p}
	}
	return &p
}

func (p *pool) leaseBlake3Keyer() *blake3Keyer { return p.keyerPool.Get().(*blake3Keyer) }
func (p *pool) leaseKey() *key                 { return p.keyPool.Get().(*key) }

type key struct {
	buf []byte
	p   *pool
}

func (k *key) append(b ...byte) { k.buf = append(k.buf, b...) }

func (k *key) Close() error {
	if cap(k.buf) <= pooledKeyMaxCap {
		k.buf = k.buf[:0]
		k.p.keyPool.Put(k)
	}
	return nil
}

type blake3Keyer struct {
	hasher hash.Hash
	p      *pool
}

type Value struct {
	ProviderID    string
	ContextID     []byte
	MetadataBytes []byte
}

func (b *blake3Keyer) valueKey(v *Value) (*key, error) {
	b.hasher.Reset()
	if _, err := b.hasher.Write([]byte(v.ProviderID)); err != nil {
		return nil, err
	}
	pidk := b.hasher.Sum(nil)
	b.hasher.Reset()
	if _, err := b.hasher.Write(v.ContextID); err != nil {
		return nil, err
	}
	ctxk := b.hasher.Sum(nil)
	vk := b.p.leaseKey()
	vk.append('v')
	vk.append(pidk...)
	vk.append(ctxk...)
	return vk, nil
}

func (b *blake3Keyer) multihashKey(mh []byte) (*key, error) {
	if len(mh) == 0 {
		return nil, errors.New("empty multihash")
	}
	mhk := b.p.leaseKey()
	mhk.append('m')
	mhk.append(mh...)
	return mhk, nil
}

// Close returns the keyer to the pool.
func (b *blake3Keyer) Close() error {
	b.hasher.Reset()
	b.p.keyerPool.Put(b)
	return nil
}

type batch struct {
	ops [][2][]byte
}

func (b *batch) Merge(k, v []byte) error {
	b.ops = append(b.ops, [2][]byte{append([]byte(nil), k...), append([]byte(nil), v...)})
	return nil
}
func (b *batch) Set(k, v []byte) error { return b.Merge(k, v) }
func (b *batch) Commit() error         { return nil }
func (b *batch) Close() error          { b.ops = nil; return nil }

type store struct {
	p *pool
}

func (s *store) Put(v Value, mhs ...[]byte) error {
	if len(v.MetadataBytes) == 0 {
		return errors.New("value missing metadata")
	}

	keygen := s.p.leaseBlake3Keyer()
	vk, err := keygen.valueKey(&v)
	if err != nil {
		_ = keygen.Close()
		return err
	}

	b := &batch{}
	defer b.Close()

	// Sort multihashes before insertion to reduce cursor churn.
	sort.Slice(mhs, func(i, j int) bool { return bytes.Compare(mhs[i], mhs[j]) == -1 })

	for _, mh := range mhs {
		mhk, err := keygen.multihashKey(mh)
		if err != nil {
			_ = keygen.Close()
			return err
		}
		if err := b.Merge(mhk.buf, vk.buf); err != nil {
			_ = keygen.Close()
			return err
		}
		_ = mhk.Close()
	}
	_ = keygen.Close()

	if err := b.Set(vk.buf, v.MetadataBytes); err != nil {
		return err
	}
	_ = vk.Close()
	return b.Commit()
}
