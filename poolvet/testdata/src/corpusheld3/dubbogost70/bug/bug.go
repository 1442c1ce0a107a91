// Package bug reproduces the shape of dubbogo/gost#70
// (https://github.com/dubbogo/gost/pull/70): gxbytes kept *bytes.Buffers in
// a generic ObjectPool (a sync.Pool wrapper over an interface with Reset),
// and PutBytesBuffer handed every buffer to it whatever its size, so big
// buffers were cached and kept system memory tight.
//
// Check: unbounded (a *bytes.Buffer meets a wrapper pool whose Put takes an
// interface; no size check anywhere). The report belongs where the growable
// buffer is handed to the wrapper, in PutBytesBuffer.
package bug

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

var defaultPool = NewObjectPool(func() PoolObject { return new(bytes.Buffer) })

// GetBytesBuffer returns a bytes.Buffer from the pool.
func GetBytesBuffer() *bytes.Buffer {
	return defaultPool.Get().(*bytes.Buffer)
}

// PutBytesBuffer returns a bytes.Buffer to the pool.
func PutBytesBuffer(buf *bytes.Buffer) {
	defaultPool.Put(buf) // want `unbounded`
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
