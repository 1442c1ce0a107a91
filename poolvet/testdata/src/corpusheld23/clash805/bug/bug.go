// Package bug reproduces the shape of Dreamacro/clash#805 (https://github.com/Dreamacro/clash/pull/805),
// fixed by commit 77d7658 "Fix: pool buffer alloc"
// (https://github.com/Dreamacro/clash/commit/77d76589caa429d3de649d28a138d4028ddee6d1): the SSR
// auth_aes128 protocol's packData took its output packet from clash's size-classed byte pool into the named
// result ret, deferred pool.Put(ret), filled it and returned it. The deferred Put runs as packData returns, so
// Encode writes into its buffer a packet that is already back in the pool and may be handed to another
// connection. The fix split the size computation out, let Encode take the buffer from the pool, have packData
// fill it, copy it into the output buffer and only then put it back.
// Check: useafterput (the pooled packet is returned past its deferred release; reported at the return).
package bug

import (
	"bytes"
	"crypto/hmac"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"math/bits"
	"math/rand"
	"sync"
)

// allocator is a size-classed byte pool: one sync.Pool per power of two up to 64 KiB.
type allocator struct {
	buffers []sync.Pool
}

func newAllocator() *allocator {
	a := &allocator{buffers: make([]sync.Pool, 17)}
	for k := range a.buffers {
		i := k
		a.buffers[k].New = func() interface{} {
			b := make([]byte, 1<<uint32(i))
			return &b
		}
	}
	return a
}

func msb(size int) uint16 {
	return uint16(bits.Len32(uint32(size)) - 1)
}

func (a *allocator) Get(size int) []byte {
	if size <= 0 || size > 65536 {
		return nil
	}
	b := msb(size)
	if size != 1<<b {
		b++
	}
	bp := a.buffers[b].Get().(*[]byte)
	return (*bp)[:size]
}

func (a *allocator) Put(buf []byte) error {
	b := msb(cap(buf))
	if cap(buf) == 0 || cap(buf) > 65536 || cap(buf) != 1<<b {
		return errors.New("allocator Put() incorrect buffer size")
	}
	full := buf[:cap(buf)]
	a.buffers[b].Put(&full)
	return nil
}

var defaultAllocator = newAllocator()

func poolGet(size int) []byte  { return defaultAllocator.Get(size) }
func poolPut(buf []byte) error { return defaultAllocator.Put(buf) }

type authAES128 struct {
	buffer  bytes.Buffer
	userKey []byte
	packID  uint32
}

func (a *authAES128) hmac(key, data []byte) []byte {
	m := hmac.New(md5.New, key)
	m.Write(data)
	return m.Sum(nil)
}

func (a *authAES128) Encode(b []byte) ([]byte, error) {
	a.buffer.Reset()
	bSize := len(b)
	offset := 0
	const blockSize = 4096
	for bSize > blockSize {
		a.buffer.Write(a.packData(b[offset : offset+blockSize]))
		bSize -= blockSize
		offset += blockSize
	}
	if bSize > 0 {
		a.buffer.Write(a.packData(b[offset:]))
	}
	return a.buffer.Bytes(), nil
}

func (a *authAES128) packData(data []byte) (ret []byte) {
	dataSize := len(data)
	randSize := 1
	if dataSize <= 1200 {
		if a.packID > 4 {
			randSize += rand.Intn(32)
		} else {
			randSize += rand.Intn(512)
		}
	}

	retSize := randSize + dataSize + 8
	ret = poolGet(retSize)
	defer poolPut(ret)
	binary.LittleEndian.PutUint16(ret[0:], uint16(retSize&0xFFFF))
	key := poolGet(len(a.userKey) + 4)
	defer poolPut(key)
	copy(key, a.userKey)
	binary.LittleEndian.PutUint32(key[len(key)-4:], a.packID)
	h := a.hmac(key, ret[:2])
	copy(ret[2:4], h[:2])
	rand.Read(ret[4 : 4+randSize])
	ret[4] = byte(randSize & 0xFF)
	if dataSize > 0 {
		copy(ret[randSize+4:], data)
	}
	a.packID++
	h = a.hmac(key, ret[:retSize-4])
	copy(ret[retSize-4:], h[:4])
	return // want `useafterput`
}
