// Source: https://github.com/DataDog/zstd/commit/27d012c1af0c63f6a16a828e497e1d4d16173e50
// ("[zstd_stream] Ensure that we won't reuse buffer", merged with
// https://github.com/DataDog/zstd/pull/80), zstd_stream.go.
// (Outside writer B's domain: the IaC/orchestration/consensus projects
// yielded no further usable pool bugs, so this is a general Go library.)
//
// Bug: the streaming reader takes its compression and decompression buffers
// from two sync.Pools (cPool, dPool) in NewReaderDict and gives them back in
// Close. Close put the buffers back but left r.compressionBuffer and
// r.decompressionBuffer pointing at them, so the reader kept memory that now
// belonged to the pool: a Read after Close decompressed into a buffer another
// reader may already have taken from dPool, and a second Close put the same
// buffers into the pools again.
//
// Fix: Close first returns early if the reader already failed/closed, then
// marks the reader closed (firstError = errReaderClosed), nils both buffer
// fields before putting the buffers back, and Read refuses to run once
// firstError is set.
//
// Check: useafterput (cPool.Put / dPool.Put in Close put the buffers back
// while the reader still keeps them in r.compressionBuffer and
// r.decompressionBuffer, where later Read/Close calls use them)
package bug

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

var errShortRead = errors.New("short read")

func resize(in []byte, newSize int) []byte {
	if in == nil {
		return make([]byte, newSize)
	}
	if newSize <= cap(in) {
		return in[:newSize]
	}
	toAdd := newSize - len(in)
	return append(in, make([]byte, toAdd)...)
}

// cSize is the recommended size of reader.compressionBuffer. This func and
// invocation allow for a one-time check for validity.
var cSize = func() int {
	v := zbuffRecommendedDInSize()
	if v <= 0 {
		panic(fmt.Errorf("ZBUFF_recommendedDInSize() returned invalid size: %v", v))
	}
	return v
}()

// dSize is the recommended size of reader.decompressionBuffer. This func and
// invocation allow for a one-time check for validity.
var dSize = func() int {
	v := zbuffRecommendedDOutSize()
	if v <= 0 {
		panic(fmt.Errorf("ZBUFF_recommendedDOutSize() returned invalid size: %v", v))
	}
	return v
}()

// cPool is a pool of buffers for use in reader.compressionBuffer. Buffers are
// taken from the pool in NewReaderDict, returned in reader.Close(). Returns a
// pointer to a slice to avoid the extra allocation of returning the slice as a
// value.
var cPool = sync.Pool{
	New: func() interface{} {
		buff := make([]byte, cSize)
		return &buff
	},
}

// dPool is a pool of buffers for use in reader.decompressionBuffer. Buffers are
// taken from the pool in NewReaderDict, returned in reader.Close(). Returns a
// pointer to a slice to avoid the extra allocation of returning the slice as a
// value.
var dPool = sync.Pool{
	New: func() interface{} {
		buff := make([]byte, dSize)
		return &buff
	},
}

// reader is an io.ReadCloser that decompresses when read from.
type reader struct {
	ctx                 *zbuffDCtx
	compressionBuffer   []byte
	compressionLeft     int
	decompressionBuffer []byte
	decompOff           int
	decompSize          int
	dict                []byte
	firstError          error
	recommendedSrcSize  int
	underlyingReader    io.Reader
}

// NewReader creates a new io.ReadCloser.  Reads from the returned ReadCloser
// read and decompress data from r.  It is the caller's responsibility to call
// Close on the ReadCloser when done.
func NewReader(r io.Reader) io.ReadCloser {
	return NewReaderDict(r, nil)
}

// NewReaderDict is like NewReader but uses a preset dictionary.  NewReaderDict
// ignores the dictionary if it is nil.
func NewReaderDict(r io.Reader, dict []byte) io.ReadCloser {
	var err error
	ctx := zbuffCreateDCtx()
	if len(dict) == 0 {
		err = getError(zbuffDecompressInit(ctx))
	} else {
		err = getError(zbuffDecompressInitDictionary(ctx, dict))
	}
	compressionBufferP := cPool.Get().(*[]byte)
	decompressionBufferP := dPool.Get().(*[]byte)
	return &reader{
		ctx:                 ctx,
		dict:                dict,
		compressionBuffer:   *compressionBufferP,
		decompressionBuffer: *decompressionBufferP,
		firstError:          err,
		recommendedSrcSize:  cSize,
		underlyingReader:    r,
	}
}

// Close frees the allocated C objects
func (r *reader) Close() error {
	cb := r.compressionBuffer
	db := r.decompressionBuffer
	cPool.Put(&cb) // want `useafterput`
	dPool.Put(&db) // want `useafterput`
	return getError(zbuffFreeDCtx(r.ctx))
}

func (r *reader) Read(p []byte) (int, error) {

	// If we already have enough bytes, return
	if r.decompSize-r.decompOff >= len(p) {
		copy(p, r.decompressionBuffer[r.decompOff:])
		r.decompOff += len(p)
		return len(p), nil
	}

	copy(p, r.decompressionBuffer[r.decompOff:r.decompSize])
	got := r.decompSize - r.decompOff
	r.decompSize = 0
	r.decompOff = 0

	for got < len(p) {
		// Populate src
		src := r.compressionBuffer
		reader := r.underlyingReader
		n, err := TryReadFull(reader, src[r.compressionLeft:])
		if err != nil && err != errShortRead { // Handle underlying reader errors first
			return 0, fmt.Errorf("failed to read from underlying reader: %s", err)
		} else if n == 0 && r.compressionLeft == 0 {
			return got, io.EOF
		}
		src = src[:r.compressionLeft+n]

		// C code
		cSrcSize := len(src)
		cDstSize := len(r.decompressionBuffer)
		retCode := zbuffDecompressContinue(
			r.ctx,
			r.decompressionBuffer,
			&cDstSize,
			src,
			&cSrcSize)

		if err = getError(retCode); err != nil {
			return 0, fmt.Errorf("failed to decompress: %s", err)
		}

		// Put everything in buffer
		if cSrcSize < len(src) {
			left := src[cSrcSize:]
			copy(r.compressionBuffer, left)
		}
		r.compressionLeft = len(src) - cSrcSize
		r.decompSize = cDstSize
		r.decompOff = copy(p[got:], r.decompressionBuffer[:r.decompSize])
		got += r.decompOff

		// Resize buffers
		nsize := retCode // Hint for next src buffer size
		if nsize <= 0 {
			// Reset to recommended size
			nsize = r.recommendedSrcSize
		}
		if nsize < r.compressionLeft {
			nsize = r.compressionLeft
		}
		r.compressionBuffer = resize(r.compressionBuffer, nsize)
	}
	return got, nil
}

// TryReadFull reads buffer just as ReadFull does
// Here we expect that buffer may end and we do not return ErrUnexpectedEOF as ReadAtLeast does.
// We return errShortRead instead to distinguish short reads and failures.
func TryReadFull(r io.Reader, buf []byte) (n int, err error) {
	for n < len(buf) && err == nil {
		var nn int
		nn, err = r.Read(buf[n:])
		n += nn
	}
	if n == len(buf) && err == io.EOF {
		err = nil // EOF at the end is somewhat expected
	} else if err == io.EOF {
		err = errShortRead
	}
	return
}
