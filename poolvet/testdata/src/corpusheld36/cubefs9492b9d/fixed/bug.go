// Package bug reproduces the shape of cubefs/cubefs commit 9492b9d
// (https://github.com/cubefs/cubefs/commit/9492b9d139d4d9a24c554271a7f31409eea50dfe,
// "fix(blobnode): fix release bytespool buffer when return reader"):
// the blobnode datafile Read takes a CRC block buffer from bytespool (size-class
// sync.Pools), registers `defer bytespool.Free(buffer)`, and builds a crc32block
// decoder over it. But Read does not read anything itself: it returns a lazy
// io.Reader that decodes into that block buffer when the caller reads the
// shard later. By then the deferred Free has put the buffer back, and a
// concurrent Read can take it, so two shard reads decode into the same memory.
// The fix allocates the block buffer with make instead of from the pool.
//
// Fixed twin: the block buffer is allocated with make.
//
// Check: useafterput (the returned reader owns the pooled buffer that the
// deferred Free has put back; report at the return).
package bug

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"sync"
)

// bytespool: size-class pools of power-of-two buffers.

const maxSizeBit = 24

var pools [maxSizeBit + 1]*sync.Pool

func init() {
	for idx := range pools {
		bits := idx
		pools[idx] = &sync.Pool{New: func() interface{} { b := make([]byte, 1<<bits); return &b }}
	}
}

func sizeBits(size int) int {
	bits := 0
	for 1<<bits < size {
		bits++
	}
	return bits
}

func Alloc(size int) []byte {
	bits := sizeBits(size)
	if bits > maxSizeBit {
		return make([]byte, size)
	}
	b := pools[bits].Get().(*[]byte)
	return (*b)[:size]
}

func Free(b []byte) {
	size := cap(b)
	bits := sizeBits(size)
	if bits > maxSizeBit || size != 1<<bits {
		return
	}
	b = b[:size]
	pools[bits].Put(&b)
}

// crc32block: every block is a 4-byte CRC followed by its payload.

const crc32Len = 4

var ErrMismatchedCrc = errors.New("mismatched crc")

type Decoder struct {
	from    io.ReaderAt
	off     int64
	limit   int64
	bufSize int
	block   []byte
}

func NewDecoderWithBlock(r io.ReaderAt, off, size int64, block []byte, bufferSize int) (*Decoder, error) {
	if len(block) <= crc32Len {
		return nil, errors.New("invalid block")
	}
	return &Decoder{from: r, off: off, limit: size, bufSize: bufferSize, block: block}, nil
}

type blockReader struct {
	reader io.Reader
	block  []byte
	i, j   int
	remain int64
	err    error
}

func (br *blockReader) Read(p []byte) (int, error) {
	if br.err != nil {
		return 0, br.err
	}
	for br.i == br.j {
		if br.remain == 0 {
			return 0, io.EOF
		}
		if br.err = br.nextBlock(); br.err != nil {
			return 0, br.err
		}
	}
	n := copy(p, br.block[br.i:br.j])
	br.i += n
	br.remain -= int64(n)
	return n, nil
}

func (br *blockReader) nextBlock() error {
	need := int64(len(br.block))
	if br.remain < need-crc32Len {
		need = br.remain + crc32Len
	}
	if _, err := io.ReadFull(br.reader, br.block[:need]); err != nil {
		return err
	}
	if binary.BigEndian.Uint32(br.block[:crc32Len]) != crc32.ChecksumIEEE(br.block[crc32Len:need]) {
		return ErrMismatchedCrc
	}
	br.i, br.j = crc32Len, int(need)
	return nil
}

type rangeReader struct {
	r       io.Reader
	limit   int64
	skip    int64
	skipped bool
}

func (r *rangeReader) Read(p []byte) (int, error) {
	if !r.skipped {
		if _, err := io.CopyN(io.Discard, r.r, r.skip); err != nil {
			return 0, err
		}
		r.skipped = true
		r.r = io.LimitReader(r.r, r.limit)
	}
	return r.r.Read(p)
}

// Reader returns a lazy reader of payload bytes [from, to); it decodes into
// dec.block as it is read.
func (dec *Decoder) Reader(from, to int64) (io.Reader, error) {
	blockLen := int64(len(dec.block))
	payload := blockLen - crc32Len
	blockOff := (from / payload) * blockLen
	nblocks := (dec.limit + payload - 1) / payload
	encoded := dec.limit + nblocks*crc32Len - blockOff

	var r io.Reader = io.NewSectionReader(dec.from, dec.off+blockOff, encoded)
	r = bufio.NewReaderSize(r, dec.bufSize)
	r = &blockReader{reader: r, block: dec.block, remain: dec.limit - (blockOff/blockLen)*payload}
	return &rangeReader{r: r, limit: to - from, skip: from % payload}, nil
}

// blobnode datafile.

const CrcBlockUnitSize = 64 * 1024

var ErrInvalidParam = errors.New("invalid param")

type Shard struct {
	Offset int64
	Size   uint32
}

type datafile struct {
	ef              io.ReaderAt
	headerSize      int64
	blockBufferSize int
	qos             chan struct{}
}

func (cd *datafile) qosAllow() bool {
	select {
	case cd.qos <- struct{}{}:
		return true
	default:
		return false
	}
}

func (cd *datafile) qosRelease() { <-cd.qos }

func (cd *datafile) Read(shard *Shard, from, to uint32) (r io.Reader, err error) {
	if shard == nil {
		return nil, ErrInvalidParam
	}
	if to > shard.Size || to-from > shard.Size {
		return nil, ErrInvalidParam
	}

	if !cd.qosAllow() {
		return nil, errors.New("overload")
	}
	defer cd.qosRelease()

	// skip header
	pos := shard.Offset + cd.headerSize

	// new buffer
	// the returned reader keeps using it: not from the pool
	buffer := make([]byte, CrcBlockUnitSize)

	// decode crc
	decoder, err := NewDecoderWithBlock(cd.ef, pos, int64(shard.Size), buffer, cd.blockBufferSize)
	if err != nil {
		return nil, err
	}

	r, err = decoder.Reader(int64(from), int64(to))
	if err != nil {
		return nil, err
	}

	return r, nil
}
