// Source: https://github.com/segmentio/kafka-go/pull/322
// (commit https://github.com/segmentio/kafka-go/commit/1248320402e89b12def4352fd36df268ceead5c6,
// "More aggressive resets of state in xerial reader").
//
// Bug: snappy xerialReaders are recycled through readerPool: NewReader gets
// one and calls Reset(r), reader.Close calls Reset(nil) and puts it back.
// Reset cleared the reader, input, output, offset and nbytes but not the
// 16-byte header array. When the next stream is shorter than a full header,
// readFull fills only part of x.header and isXerialHeader looks at the
// previous stream's leftover bytes, so the recycled reader misdetects the
// framing and produces corrupt data (the Kafka reader then halts). readChunk
// also kept the previous chunk's x.output around.
// Fix: Reset also zeroes x.header, and readChunk truncates x.output first.
//
// Check: noreset (at readerPool.Put in reader.Close: the xerialReader goes
// back after a Reset that forgets the header of the last stream)
package bug

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const defaultBufferSize = 32 * 1024

var xerialHeader = []byte{130, 83, 78, 65, 80, 80, 89, 0}

func isXerialHeader(src []byte) bool {
	return len(src) >= 16 && bytes.Equal(src[:8], xerialHeader)
}

var errCorrupt = errors.New("snappy: corrupt input")

// decode stands in for snappy.Decode.
func decode(dst, src []byte) ([]byte, error) {
	if len(src) == 0 {
		return nil, errCorrupt
	}
	return append(dst[:0], src...), nil
}

type reader struct{ *xerialReader }

func NewReader(r io.Reader) io.ReadCloser {
	x := readerPool.Get().(*xerialReader)
	x.Reset(r)
	return &reader{x}
}

func (r *reader) Close() (err error) {
	if x := r.xerialReader; x != nil {
		r.xerialReader = nil
		x.Reset(nil)
		readerPool.Put(x) // want `noreset`
	}
	return
}

var readerPool = sync.Pool{
	New: func() interface{} {
		return &xerialReader{decode: decode}
	},
}

// An implementation of io.Reader which consumes a stream of xerial-framed
// snappy-encoeded data.
type xerialReader struct {
	reader io.Reader
	header [16]byte
	input  []byte
	output []byte
	offset int64
	nbytes int64
	decode func([]byte, []byte) ([]byte, error)
}

func (x *xerialReader) Reset(r io.Reader) {
	x.reader = r
	x.input = x.input[:0]
	x.output = x.output[:0]
	x.offset = 0
	x.nbytes = 0
}

func (x *xerialReader) Read(b []byte) (int, error) {
	for {
		if x.offset < int64(len(x.output)) {
			n := copy(b, x.output[x.offset:])
			x.offset += int64(n)
			return n, nil
		}

		n, err := x.readChunk(b)
		if err != nil {
			return 0, err
		}
		if n > 0 {
			return n, nil
		}
	}
}

func (x *xerialReader) readChunk(dst []byte) (int, error) {
	x.offset = 0
	prefix := 0

	if x.nbytes == 0 {
		n, err := x.readFull(x.header[:])
		if err != nil && n == 0 {
			return 0, err
		}
		prefix = n
	}

	if isXerialHeader(x.header[:]) {
		if cap(x.input) < 4 {
			x.input = make([]byte, 4, defaultBufferSize)
		} else {
			x.input = x.input[:4]
		}

		if _, err := x.readFull(x.input); err != nil {
			return 0, err
		}

		frame := int(binary.BigEndian.Uint32(x.input))
		if cap(x.input) < frame {
			x.input = make([]byte, frame)
		} else {
			x.input = x.input[:frame]
		}

		if _, err := x.readFull(x.input); err != nil {
			return 0, err
		}
	} else {
		x.input = x.input[:0]
		if prefix > 0 {
			x.input = append(x.input, x.header[:prefix]...)
		}
		rest, err := io.ReadAll(x.reader)
		x.nbytes += int64(len(rest))
		x.input = append(x.input, rest...)
		if err != nil {
			return 0, err
		}
	}

	var err error
	x.output, err = x.decode(x.output[:cap(x.output)], x.input)
	return 0, err
}

func (x *xerialReader) readFull(b []byte) (int, error) {
	n, err := io.ReadFull(x.reader, b)
	x.nbytes += int64(n)
	return n, err
}
