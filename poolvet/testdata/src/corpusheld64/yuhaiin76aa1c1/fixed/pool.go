// Source: https://github.com/Asutorufa/yuhaiin/commit/76aa1c1c3702f1a05ae817f303afb3656c9d3120
// ("fix some data race"), pkg/net/dns/resolver/group.go, dns.go and
// pkg/utils/pool/pool.go at the parent commit.
//
// Bug: DNS transports returned a Response backed by a pooled byte slice
// (BytesResponse, whose Release does pool.PutBytes). Group.Do, which races
// several transports, parsed the winning response, released it back to the
// byte pool, and then returned that same released BytesResponse to its
// caller. client.query then called resp.Msg() (unpacking bytes that another
// goroutine may already have taken from the pool and overwritten) and
// deferred resp.Release() (putting the slice back a second time).
// Fix: the commit removed the pooled Response type altogether; transports
// and Group.Do return the parsed dns.Msg by value, so nothing pooled escapes.
//
// Check: useafterput (in Group.Do, at `return r.resp, nil`: r.resp's memory
// was put back into the byte pool by r.resp.Release() just before and is
// returned to the caller, which reads and releases it again)
package fixed

import (
	"math"
	"math/bits"
	"sync"
)

const MaxLength = math.MaxInt32

type Pool interface {
	GetBytes(size int) []byte
	PutBytes(b []byte)
}

var DefaultPool Pool = &pool{}

func GetBytes(size int) []byte { return DefaultPool.GetBytes(size) }
func PutBytes(b []byte)        { DefaultPool.PutBytes(b) }

var buffers [32]*sync.Pool

func init() {
	for i := range buffers {
		i := i
		buffers[i] = &sync.Pool{
			New: func() any { return make([]byte, 1<<i) },
		}
	}
}

// Log of base two, round up (for v > 0).
func nextLogBase2(v uint32) uint32 {
	return uint32(bits.Len32(v - 1))
}

// Log of base two, round down (for v > 0)
func prevLogBase2(num uint32) uint32 {
	next := nextLogBase2(num)
	if num == (1 << uint32(next)) {
		return next
	}
	return next - 1
}

type pool struct{}

func (pool) GetBytes(size int) []byte {
	if size == 0 {
		return nil
	}
	if size > MaxLength || size < 0 {
		return make([]byte, size)
	}

	l := nextLogBase2(uint32(size))
	b := buffers[l].Get().([]byte)[:size]
	return b
}

func (pool) PutBytes(b []byte) {
	if cap(b) > MaxLength || cap(b) <= 0 {
		return
	}

	l := prevLogBase2(uint32(cap(b)))
	//lint:ignore SA6002 ignore temporarily
	buffers[l].Put(b)
}
