// Package bug reproduces the shape of a double Free in v2fly/v2ray-core's
// QUIC sniffer, fixed by PR #3331 (commit
// 561f31245df2447c683635e62bb08c4074698b53,
// https://github.com/v2fly/v2ray-core/pull/3331) while chasing buffer
// corruption (#3316). SniffQUIC did `defer bytespool.Free(cryptoData)`, which
// captures the slice at the defer. When a CRYPTO frame needed more room it
// allocated a larger slice, freed the old one explicitly and switched to the
// new one; at return the deferred Free put the old slice back a second time
// (and leaked the new one), so the pool handed one array to two users.
//
// Check: doubleput (a Put through a size-class wrapper, then the same slice
// again from a defer whose argument was evaluated before; reported at the
// explicit Free, the docs' "explicit one, when the other is deferred").
// The pool stores *[]byte and Free drops oversized slices, unlike the
// original, so that only the double Free is at stake here.
package bug

import (
	"errors"
	"io"
	"sync"
)

const (
	numPools  = 4
	sizeMulti = 4
)

var (
	pool     [numPools]sync.Pool
	poolSize [numPools]int32
)

func init() {
	size := int32(2048)
	for i := 0; i < numPools; i++ {
		n := size
		pool[i] = sync.Pool{New: func() any {
			b := make([]byte, n)
			return &b
		}}
		poolSize[i] = size
		size *= sizeMulti
	}
}

func getPool(size int32) *sync.Pool {
	for i, ps := range poolSize {
		if size <= ps {
			return &pool[i]
		}
	}
	return nil
}

// Alloc returns a byte slice of at least size bytes.
func Alloc(size int32) []byte {
	p := getPool(size)
	if p != nil {
		return *(p.Get().(*[]byte))
	}
	return make([]byte, size)
}

// Free puts a byte slice back into the pool of its size class.
func Free(b []byte) {
	size := int32(cap(b))
	if size > poolSize[numPools-1] {
		return
	}
	b = b[0:cap(b)]
	for i := numPools - 1; i >= 0; i-- {
		if size >= poolSize[i] {
			pool[i].Put(&b)
			return
		}
	}
}

var errShort = io.ErrUnexpectedEOF

type frameReader struct {
	b []byte
}

func (r *frameReader) varint() (uint64, error) {
	if len(r.b) < 2 {
		return 0, errShort
	}
	v := uint64(r.b[0])<<8 | uint64(r.b[1])
	r.b = r.b[2:]
	return v, nil
}

func (r *frameReader) Read(p []byte) (int, error) {
	if len(r.b) < len(p) {
		return 0, errShort
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// SniffQUIC reassembles the CRYPTO frames of an Initial packet and returns
// the length of the ClientHello found there.
func SniffQUIC(b []byte) (int, error) {
	cryptoLen := 0
	cryptoData := Alloc(int32(len(b)))
	defer Free(cryptoData)

	buffer := &frameReader{b: b}
	for len(buffer.b) > 0 {
		frameType := buffer.b[0]
		buffer.b = buffer.b[1:]
		switch frameType {
		case 0x00: // PADDING
		case 0x06: // CRYPTO
			offset, err := buffer.varint()
			if err != nil {
				return 0, errShort
			}
			length, err := buffer.varint()
			if err != nil || length > uint64(len(buffer.b)) {
				return 0, errShort
			}
			if cryptoLen < int(offset+length) {
				cryptoLen = int(offset + length)
				if len(cryptoData) < cryptoLen {
					newCryptoData := Alloc(int32(cryptoLen))
					copy(newCryptoData, cryptoData)
					Free(cryptoData) // want `doubleput`
					cryptoData = newCryptoData
				}
			}
			if _, err := buffer.Read(cryptoData[offset : offset+length]); err != nil {
				return 0, errShort
			}
		default:
			return 0, errors.New("not an initial packet")
		}
	}
	if cryptoLen < 4 || cryptoData[0] != 0x01 {
		return 0, errors.New("no client hello")
	}
	return cryptoLen, nil
}
