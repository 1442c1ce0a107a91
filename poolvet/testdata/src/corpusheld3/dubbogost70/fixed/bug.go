// Package fixed is dubbogo/gost#70 with the PR's size limit: buffers whose
// capacity is outside [minBufCap, maxBufCap] are not pooled.
package fixed

import (
	"bytes"
	"sync"
)

// PoolObject is what ObjectPool stores.
type PoolObject interface {
	Reset()
}

type New func() PoolObject

// ObjectPool is a pool of resettable objects.
type ObjectPool struct {
	New  New
	pool sync.Pool
}

func NewObjectPool(n New) *ObjectPool {
	return &ObjectPool{New: n}
}

func (p *ObjectPool) Get() PoolObject {
	v := p.pool.Get()
	if v == nil {
		return p.New()
	}
	return v.(PoolObject)
}

func (p *ObjectPool) Put(o PoolObject) {
	o.Reset()
	p.pool.Put(o)
}

const (
	minBufCap = 512
	maxBufCap = 20 * 1024
)

var defaultPool = NewObjectPool(func() PoolObject { return new(bytes.Buffer) })

// GetBytesBuffer returns a bytes.Buffer from the pool.
func GetBytesBuffer() *bytes.Buffer {
	return defaultPool.Get().(*bytes.Buffer)
}

// PutBytesBuffer returns a bytes.Buffer to the pool unless it is too small
// or too big to be worth keeping.
func PutBytesBuffer(buf *bytes.Buffer) {
	bufCap := buf.Cap()
	if bufCap < minBufCap || bufCap > maxBufCap {
		return
	}
	defaultPool.Put(buf)
}

// Encode frames payload with a length prefix.
func Encode(payload []byte) []byte {
	buf := GetBytesBuffer()
	buf.WriteByte(byte(len(payload) >> 8))
	buf.WriteByte(byte(len(payload)))
	buf.Write(payload)
	out := append([]byte(nil), buf.Bytes()...)
	PutBytesBuffer(buf)
	return out
}
