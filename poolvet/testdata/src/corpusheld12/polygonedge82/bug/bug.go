// Package bug reproduces the shape of 0xPolygon/polygon-edge#82
// (https://github.com/0xPolygon/polygon-edge/pull/82): the EVM's
// CALLDATALOAD handler borrowed a 32-byte scratch slice from a sync.Pool
// that stored bare []byte values. Handing the slice back to Put converts it
// to an interface, which copies the slice header to the heap on every
// opcode, so the pool itself allocated once per call (staticcheck SA6002).
//
// Check: nonpointer (a []byte value, not a pointer, is put into a sync.Pool)
package bug

import (
	"math/big"
	"sync"
)

var bufPool = sync.Pool{
	New: func() any {
		return make([]byte, 32)
	},
}

type message struct {
	Input []byte
}

type state struct {
	stack []*big.Int
	msg   *message
}

func (c *state) top() *big.Int {
	return c.stack[len(c.stack)-1]
}

// setBytes copies size bytes of input starting at offset into dst,
// padding with zeros past the end of input.
func (c *state) setBytes(dst []byte, input []byte, size int, offset *big.Int) {
	for i := range dst[:size] {
		dst[i] = 0
	}
	if !offset.IsInt64() {
		return
	}
	start := offset.Int64()
	if start < 0 || start >= int64(len(input)) {
		return
	}
	copy(dst[:size], input[start:])
}

func opCallDataLoad(c *state) {
	offset := c.top()

	buf := bufPool.Get().([]byte)
	c.setBytes(buf[:32], c.msg.Input, 32, offset)
	offset.SetBytes(buf[:32])
	bufPool.Put(buf) // want `nonpointer`
}
