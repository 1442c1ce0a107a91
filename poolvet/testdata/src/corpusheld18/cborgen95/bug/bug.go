// Package bug reproduces the shape of whyrusleeping/cbor-gen#95
// (https://github.com/whyrusleeping/cbor-gen/pull/95, merged as 7054243):
// the pool of string-read buffers is made of *[]byte of MaxLength bytes, but
// ReadStringWithMax accepts strings up to a caller-chosen maxLength and grows
// the pooled buffer to the string's length before putting it back. As the
// reviewer noted in the PR, this replaces the pool's buffers with ones as
// large as the biggest string ever read; he suggested side-stepping the pool
// for strings longer than the pooled size.
//
// Check: unbounded (a pooled *[]byte grown to an input-chosen size and put
// back, in a deferred closure, with no size bound).
package bug

import (
	"encoding/binary"
	"fmt"
	"io"
	"sync"
)

const MaxLength = 8192

const MajTextString = 3

var stringBufPool = sync.Pool{
	New: func() any {
		b := make([]byte, MaxLength)
		return &b
	},
}

// readHeader reads a (simplified) CBOR header: one major-type byte and a
// big-endian uint64 length.
func readHeader(r io.Reader) (byte, uint64, error) {
	var hdr [9]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, 0, err
	}
	return hdr[0] >> 5, binary.BigEndian.Uint64(hdr[1:]), nil
}

// ReadStringWithMax reads a text string of at most maxLength bytes.
func ReadStringWithMax(r io.Reader, maxLength uint64) (string, error) {
	maj, l, err := readHeader(r)
	if err != nil {
		return "", err
	}
	if maj != MajTextString {
		return "", fmt.Errorf("got tag %d while reading string value (l = %d)", maj, l)
	}
	if l > maxLength {
		return "", fmt.Errorf("string in input was too long")
	}

	bufp := stringBufPool.Get().(*[]byte)
	if cap(*bufp) < int(l) {
		*bufp = append((*bufp)[:cap(*bufp)], make([]byte, int(l)-cap(*bufp))...)
	}
	buf := (*bufp)[:l]
	defer func() {
		for i := range buf {
			buf[i] = 0
		}
		stringBufPool.Put(bufp) // want `unbounded`
	}()
	if _, err := io.ReadAtLeast(r, buf, int(l)); err != nil {
		return "", err
	}
	return string(buf), nil
}
