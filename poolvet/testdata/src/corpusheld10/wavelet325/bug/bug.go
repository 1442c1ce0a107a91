// Package bug reproduces the shape of perlin-network/wavelet#325
// (https://github.com/perlin-network/wavelet/pull/325), which reverted
// wavelet#322: block marshaling had been moved onto a pooled byte buffer,
// but Marshal handed the buffer's bytes to its caller and gave the buffer
// back to the pool first. Other goroutines then got the same buffer and
// wrote into bytes that callers were still hashing and sending; the race
// detector flagged many places.
//
// Check: useafterput (a slice of the pooled buffer, taken before the Put, is
// returned after the Put; the report goes on that return).
package bug

import (
	"bytes"
	"encoding/binary"
	"sync"
)

const maxPooled = 64 << 10

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type Block struct {
	Index        uint64
	Merkle       [16]byte
	Transactions [][32]byte
}

func writeHeader(buf *bytes.Buffer, b *Block) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], b.Index)
	buf.Write(n[:])
	buf.Write(b.Merkle[:])
	binary.BigEndian.PutUint64(n[:], uint64(len(b.Transactions)))
	buf.Write(n[:])
}

func (b *Block) Marshal() []byte {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	writeHeader(buf, b)
	for i := range b.Transactions {
		buf.Write(b.Transactions[i][:])
	}
	out := buf.Bytes()
	if buf.Cap() <= maxPooled {
		bufPool.Put(buf)
	}
	return out // want `useafterput`
}
