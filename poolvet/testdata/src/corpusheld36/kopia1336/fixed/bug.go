// Package bug reproduces the shape of kopia/kopia#1336
// (https://github.com/kopia/kopia/pull/1336, fix commit
// https://github.com/kopia/kopia/commit/0000e17e6fe7942592f6a9cdf5526e11d80e0bbb,
// "fixed use-after-free bug during index recovery"):
// RecoverIndexFromPackBlob reads a pack's local index into a gather.WriteBuffer
// whose chunks come from a chunk allocator (a free list; modelled here with a
// sync.Pool) and are released by the deferred Close. The index entries handed
// out by Iterate are views into those chunks, yet they were added as they are
// to the manager's long-lived packIndexBuilder (and collected into the result),
// so they point into chunks that Close gives back to the allocator when the
// function returns. The fix converts each entry into a self-contained struct
// (ToInfoStruct) before keeping it; kopia later (#3356) did the same for the
// returned slice, which the fixed twin follows.
//
// Fixed twin: every kept entry is a ToInfoStruct copy.
//
// Check: useafterput (entries viewing pooled chunks outlive the deferred
// Close: stored into the builder and returned).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

const chunkSize = 1 << 16

// chunkAllocator hands out fixed-size chunks and takes them back.
type chunkAllocator struct {
	pool sync.Pool
}

var contiguousAllocator = &chunkAllocator{
	pool: sync.Pool{New: func() interface{} { return new([chunkSize]byte) }},
}

func (a *chunkAllocator) allocChunk() *[chunkSize]byte {
	return a.pool.Get().(*[chunkSize]byte)
}

func (a *chunkAllocator) releaseChunk(c *[chunkSize]byte) {
	a.pool.Put(c)
}

// WriteBuffer keeps its data in chunks from an allocator.
type WriteBuffer struct {
	alloc  *chunkAllocator
	chunks []*[chunkSize]byte
	data   []byte
}

// MakeContiguous makes the buffer one chunk-backed slice of the given length.
func (b *WriteBuffer) MakeContiguous(length int) []byte {
	b.Close()
	if length > chunkSize {
		b.data = make([]byte, length)
		return b.data
	}
	b.alloc = contiguousAllocator
	c := b.alloc.allocChunk()
	b.chunks = append(b.chunks, c)
	b.data = c[:length]
	return b.data
}

// Bytes returns the buffer's contents without copying.
func (b *WriteBuffer) Bytes() []byte { return b.data }

// Close releases all memory allocated by this buffer.
func (b *WriteBuffer) Close() {
	if b.alloc != nil {
		for _, c := range b.chunks {
			b.alloc.releaseChunk(c)
		}
		b.alloc = nil
	}
	b.chunks = nil
	b.data = nil
}

type ID string

// Info describes one content in a pack.
type Info interface {
	GetContentID() ID
	GetPackOffset() uint32
	GetPackedLength() uint32
}

// indexEntryInfo reads its fields straight out of the index bytes.
type indexEntryInfo struct {
	id   ID
	data []byte
}

func (e indexEntryInfo) GetContentID() ID        { return e.id }
func (e indexEntryInfo) GetPackOffset() uint32   { return binary.BigEndian.Uint32(e.data[0:4]) }
func (e indexEntryInfo) GetPackedLength() uint32 { return binary.BigEndian.Uint32(e.data[4:8]) }

// InfoStruct is a durable copy of an Info.
type InfoStruct struct {
	ContentID    ID
	PackOffset   uint32
	PackedLength uint32
}

func (s *InfoStruct) GetContentID() ID        { return s.ContentID }
func (s *InfoStruct) GetPackOffset() uint32   { return s.PackOffset }
func (s *InfoStruct) GetPackedLength() uint32 { return s.PackedLength }

// ToInfoStruct copies i out of whatever memory it lives in.
func ToInfoStruct(i Info) *InfoStruct {
	return &InfoStruct{ContentID: i.GetContentID(), PackOffset: i.GetPackOffset(), PackedLength: i.GetPackedLength()}
}

type packIndex struct {
	b []byte
}

// openPackIndex opens an index over b without copying it. Records are a
// 1-byte ID length, the ID, then 8 bytes of offset and length.
func openPackIndex(b []byte) (*packIndex, error) {
	if len(b) == 0 {
		return nil, errors.New("empty index")
	}
	return &packIndex{b: b}, nil
}

func (p *packIndex) Iterate(cb func(i Info) error) error {
	b := p.b
	for len(b) > 0 {
		n := int(b[0])
		if len(b) < 1+n+8 {
			return errors.New("truncated index")
		}
		e := indexEntryInfo{id: ID(b[1 : 1+n]), data: b[1+n : 1+n+8]}
		if err := cb(e); err != nil {
			return err
		}
		b = b[1+n+8:]
	}
	return nil
}

type WriteManager struct {
	mu               sync.Mutex
	packIndexBuilder map[ID]Info
	readPack         func(packFile string, length int64) ([]byte, error)
}

func (bm *WriteManager) readPackFileLocalIndex(packFile string, packFileLength int64, output *WriteBuffer) error {
	raw, err := bm.readPack(packFile, packFileLength)
	if err != nil {
		return err
	}
	copy(output.MakeContiguous(len(raw)), raw)
	return nil
}

// RecoverIndexFromPackBlob attempts to recover index entries from a given pack file.
func (bm *WriteManager) RecoverIndexFromPackBlob(packFile string, packFileLength int64, commit bool) ([]Info, error) {
	var localIndexBytes WriteBuffer
	defer localIndexBytes.Close()

	if err := bm.readPackFileLocalIndex(packFile, packFileLength, &localIndexBytes); err != nil {
		return nil, err
	}

	ndx, err := openPackIndex(localIndexBytes.Bytes())
	if err != nil {
		return nil, errors.New("unable to open index in file " + packFile)
	}

	var recovered []Info

	bm.mu.Lock()
	defer bm.mu.Unlock()

	err = ndx.Iterate(func(i Info) error {
		// 'i' depends on the index buffer, which is released when this
		// function returns: keep a durable copy instead.
		is := ToInfoStruct(i)
		recovered = append(recovered, is)
		if commit {
			bm.packIndexBuilder[is.GetContentID()] = is
		}
		return nil
	})

	return recovered, err
}
