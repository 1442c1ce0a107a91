// Package fixed is the fixed twin of polygonedge82: the pool stores
// *[]byte, so Put hands over a pointer and nothing is boxed
// (0xPolygon/polygon-edge#82).
package fixed

import (
	"math/big"
	"sync"
)

var bufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 32)
		return &b
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

	bufPtr := bufPool.Get().(*[]byte)
	buf := *bufPtr
	c.setBytes(buf[:32], c.msg.Input, 32, offset)
	offset.SetBytes(buf[:32])
	bufPool.Put(bufPtr)
}
