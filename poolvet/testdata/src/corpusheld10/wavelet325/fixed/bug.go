// Package fixed is perlin-network/wavelet#325: the pool is gone again and
// Marshal fills a slice it allocated, which the caller owns.
package fixed

import "encoding/binary"

type Block struct {
	Index        uint64
	Merkle       [16]byte
	Transactions [][32]byte
}

func writeHeader(out []byte, b *Block) []byte {
	out = binary.BigEndian.AppendUint64(out, b.Index)
	out = append(out, b.Merkle[:]...)
	return binary.BigEndian.AppendUint64(out, uint64(len(b.Transactions)))
}

func (b *Block) Marshal() []byte {
	out := make([]byte, 0, 8+16+8+32*len(b.Transactions))
	out = writeHeader(out, b)
	for i := range b.Transactions {
		out = append(out, b.Transactions[i][:]...)
	}
	return out
}
