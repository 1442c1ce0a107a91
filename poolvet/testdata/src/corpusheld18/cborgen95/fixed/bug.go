// Package fixed applies the fix suggested in the review of
// whyrusleeping/cbor-gen#95 (https://github.com/whyrusleeping/cbor-gen/pull/95):
// a string longer than the pooled buffers side-steps the pool and gets its
// own buffer, so the pool only ever holds buffers of MaxLength bytes.
package fixed

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

	if l > MaxLength {
		// Longer than the pooled buffers: do not use the pool.
		buf := make([]byte, l)
		if _, err := io.ReadAtLeast(r, buf, int(l)); err != nil {
			return "", err
		}
		return string(buf), nil
	}

	bufp := stringBufPool.Get().(*[]byte)
	buf := (*bufp)[:l]
	defer func() {
		for i := range buf {
			buf[i] = 0
		}
		stringBufPool.Put(bufp)
	}()
	if _, err := io.ReadAtLeast(r, buf, int(l)); err != nil {
		return "", err
	}
	return string(buf), nil
}
