// Package bug reproduces the shape of syncthing/syncthing#10225
// (https://github.com/syncthing/syncthing/pull/10225): the block hasher in
// lib/scanner keeps its 32 KiB copy buffers in a sync.Pool whose New returns a bare
// []byte. Blocks takes one with a type assertion to []byte, uses it with
// io.CopyBuffer for every block and then puts the slice header back, so each Put
// boxes a fresh slice header into an interface (an allocation per call, flagged by
// staticcheck SA6002). The PR switched the pool to pointers to a fixed-size array.
//
// Fixed twin: the pool holds *[bufSize]byte; Blocks slices the array for use and
// converts the slice back to the array pointer for the Put.
package bug

import (
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"sync"
)

var SHA256OfNothing = []uint8{0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24, 0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55}

type BlockInfo struct {
	Offset int64
	Size   int
	Hash   []byte
}

type Counter interface {
	Update(bytes int64)
}

type noopCounter struct{}

func (*noopCounter) Update(int64) {}

const bufSize = 32 << 10 // 32k

var bufPool = sync.Pool{
	New: func() any {
		return new([bufSize]byte) // 32k copy buffer
	},
}

var hashPool = sync.Pool{
	New: func() any {
		return sha256.New()
	},
}

// Blocks returns the blockwise hash of the reader.
func Blocks(ctx context.Context, r io.Reader, blocksize int, sizehint int64, counter Counter) ([]BlockInfo, error) {
	if counter == nil {
		counter = &noopCounter{}
	}

	hf := hashPool.Get().(hash.Hash)
	const hashLength = sha256.Size

	var blocks []BlockInfo
	var hashes, thisHash []byte

	if sizehint >= 0 {
		r = io.LimitReader(r, sizehint)
		numBlocks := sizehint / int64(blocksize)
		if sizehint%int64(blocksize) != 0 {
			numBlocks++
		}
		blocks = make([]BlockInfo, 0, numBlocks)
		hashes = make([]byte, 0, hashLength*numBlocks)
	}

	// The copy buffer feeding the hash function comes from the pool.
	buf := bufPool.Get().(*[bufSize]byte)[:]

	var offset int64
	lr := io.LimitReader(r, int64(blocksize)).(*io.LimitedReader)
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}

		lr.N = int64(blocksize)
		n, err := io.CopyBuffer(hf, lr, buf)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}

		counter.Update(n)

		hashes = hf.Sum(hashes)
		thisHash, hashes = hashes[:hashLength], hashes[hashLength:]

		blocks = append(blocks, BlockInfo{
			Size:   int(n),
			Offset: offset,
			Hash:   thisHash,
		})
		offset += n

		hf.Reset()
	}
	bufPool.Put((*[bufSize]byte)(buf))
	hf.Reset()
	hashPool.Put(hf)

	if len(blocks) == 0 {
		blocks = append(blocks, BlockInfo{Hash: SHA256OfNothing})
	}

	return blocks, nil
}
