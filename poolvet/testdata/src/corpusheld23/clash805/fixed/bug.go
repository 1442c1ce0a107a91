// Package bug is the fixed twin of Dreamacro/clash#805 (https://github.com/Dreamacro/clash/pull/805),
// fix commit 77d7658 (https://github.com/Dreamacro/clash/commit/77d76589caa429d3de649d28a138d4028ddee6d1):
// Encode takes the packet buffer from the byte pool, packData only fills it, and the buffer goes back to the
// pool after its bytes have been copied into the output buffer.
// Check: useafterput (none expected here).
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
		packSize, randSize := a.packedDataSize(b[offset : offset+blockSize])
		pack := poolGet(packSize)
		a.packData(b[offset:offset+blockSize], pack, randSize)
		a.buffer.Write(pack)
		poolPut(pack)
		bSize -= blockSize
		offset += blockSize
	}
	if bSize > 0 {
		packSize, randSize := a.packedDataSize(b[offset:])
		pack := poolGet(packSize)
		a.packData(b[offset:], pack, randSize)
		a.buffer.Write(pack)
		poolPut(pack)
	}
	return a.buffer.Bytes(), nil
}

func (a *authAES128) packedDataSize(data []byte) (packSize, randSize int) {
	dataSize := len(data)
	randSize = 1
	if dataSize <= 1200 {
		if a.packID > 4 {
			randSize += rand.Intn(32)
		} else {
			randSize += rand.Intn(512)
		}
	}
	packSize = randSize + dataSize + 8
	return
}

func (a *authAES128) packData(data, ret []byte, randSize int) {
	dataSize := len(data)
	retSize := len(ret)
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
}
