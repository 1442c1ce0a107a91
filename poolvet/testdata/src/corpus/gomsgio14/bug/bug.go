// Package bug reproduces the shape of jbenet/go-msgio#14
// (https://github.com/jbenet/go-msgio/issues/14): the size-classed pool's
// Get returned whatever its sync.Pool held, and those sync.Pools had no
// New, so on an empty pool Get returned nil and the caller's assertion
// .([]byte) panicked ("interface {} is nil, not []uint8"); the pool also
// stored []byte values (boxed on every Put).
//
// Checks: typemismatch (Get asserted to a type the pool never creates:
// it has no New) and nonpointer (Put of a []byte through a wrapper taking
// interface{}).
package bug

import (
	"math/bits"
	"sync"
)

type Pool struct {
	pools [32]sync.Pool
}

func class(length uint32) int { return bits.Len32(length - 1) }

func (p *Pool) Get(length uint32) interface{} {
	return p.pools[class(length)].Get()
}

func (p *Pool) Put(length uint32, val interface{}) {
	p.pools[class(length)].Put(val)
}

func Process(p *Pool, msg []byte, handle func([]byte)) {
	buf := p.Get(uint32(len(msg))).([]byte) // want `asserted to|whose New returns|typemismatch|no New|nil`
	n := copy(buf, msg)
	handle(buf[:n])
	p.Put(uint32(len(msg)), buf) // want `non-pointer|nonpointer`
}
