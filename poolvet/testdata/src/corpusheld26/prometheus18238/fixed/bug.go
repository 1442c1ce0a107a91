// Package bug reproduces the shape of prometheus/prometheus#18238 (https://github.com/prometheus/prometheus/pull/18238,
// commit https://github.com/prometheus/prometheus/commit/bd6e233dd604068f7a22f0cffd18d0520fa394fc "tsdb/chunkenc: fix
// XOR2 chunk data corruption via pool reuse"): memSeries.mmapChunks hands each full head chunk to
// ChunkDiskMapper.WriteChunk and then returns XOR2 chunks to xor2ChunkPool with ReleaseXOR2Chunk. But
// WriteChunk keeps the chunk pointer itself (in chunkBuffer until it is read back, or in the async write
// queue), so after the release the next NewXOR2Chunk reuses it and overwrites the bytes the mapper still
// serves or has yet to flush. The fix makes the mapper retain an independent copy of XOR2 chunks.
// Check: useafterput (the chunk is handed to a mapper that keeps it, then released to the pool; report
// at the WriteChunk call whose retained chunk outlives the release).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

type Encoding uint8

const (
	EncXOR  Encoding = 1
	EncXOR2 Encoding = 4
)

type Chunk interface {
	Bytes() []byte
	Encoding() Encoding
	NumSamples() int
}

const (
	chunkHeaderSize       = 2
	xor2MaxPooledCapacity = 1024
)

type bstream struct {
	stream []byte
	count  uint8
}

type XOR2Chunk struct {
	b bstream
}

var xor2ChunkPool = sync.Pool{New: func() interface{} {
	return &XOR2Chunk{b: bstream{stream: make([]byte, chunkHeaderSize, 128)}}
}}

// NewXOR2Chunk draws from xor2ChunkPool to reuse the grown backing slice.
func NewXOR2Chunk() *XOR2Chunk {
	c := xor2ChunkPool.Get().(*XOR2Chunk)
	c.b.stream = c.b.stream[:chunkHeaderSize]
	c.b.stream[0] = 0
	c.b.stream[1] = 0
	c.b.count = 0
	return c
}

// ReleaseXOR2Chunk returns c to the pool after it has been fully written to disk.
// The caller must not access c after this call.
func ReleaseXOR2Chunk(c *XOR2Chunk) {
	if cap(c.b.stream) <= xor2MaxPooledCapacity {
		c.b.stream = c.b.stream[:chunkHeaderSize]
		c.b.count = 0
		xor2ChunkPool.Put(c)
	}
}

func (c *XOR2Chunk) Append(v byte) {
	c.b.stream = append(c.b.stream, v)
	c.b.stream[1]++
}

func (c *XOR2Chunk) Bytes() []byte      { return c.b.stream }
func (c *XOR2Chunk) Encoding() Encoding { return EncXOR2 }
func (c *XOR2Chunk) NumSamples() int    { return int(c.b.stream[1]) }

type xorChunk struct{ b []byte }

func (c *xorChunk) Bytes() []byte      { return c.b }
func (c *xorChunk) Encoding() Encoding { return EncXOR }
func (c *xorChunk) NumSamples() int    { return int(c.b[1]) }

func FromData(e Encoding, d []byte) (Chunk, error) {
	switch e {
	case EncXOR2:
		return &XOR2Chunk{b: bstream{stream: d}}, nil
	case EncXOR:
		return &xorChunk{b: d}, nil
	}
	return nil, errors.New("invalid chunk encoding")
}

// ---- chunks ----

type ChunkDiskMapperRef uint64
type HeadSeriesRef uint64

// chunkBuffer keeps recently written chunks until they can be read from disk.
type chunkBuffer struct {
	mu     sync.Mutex
	chunks map[ChunkDiskMapperRef]Chunk
}

func (cb *chunkBuffer) put(ref ChunkDiskMapperRef, chk Chunk) {
	cb.mu.Lock()
	cb.chunks[ref] = chk
	cb.mu.Unlock()
}

func (cb *chunkBuffer) get(ref ChunkDiskMapperRef) Chunk {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	return cb.chunks[ref]
}

type ChunkDiskMapper struct {
	mu          sync.Mutex
	nextRef     ChunkDiskMapperRef
	file        bytes.Buffer
	chunkBuffer *chunkBuffer
}

func NewChunkDiskMapper() *ChunkDiskMapper {
	return &ChunkDiskMapper{chunkBuffer: &chunkBuffer{chunks: map[ChunkDiskMapperRef]Chunk{}}}
}

func (cdm *ChunkDiskMapper) WriteChunk(seriesRef HeadSeriesRef, mint, maxt int64, chk Chunk, isOOO bool, callback func(error)) ChunkDiskMapperRef {
	cdm.mu.Lock()
	cdm.nextRef++
	ref := cdm.nextRef
	cdm.mu.Unlock()
	if err := cdm.writeChunk(seriesRef, mint, maxt, chk, ref, isOOO); err != nil && callback != nil {
		callback(err)
	}
	return ref
}

func (cdm *ChunkDiskMapper) writeChunk(_ HeadSeriesRef, _, _ int64, chk Chunk, ref ChunkDiskMapperRef, _ bool) error {
	cdm.mu.Lock()
	cdm.file.Write(chk.Bytes())
	cdm.mu.Unlock()

	chkForBuffer, err := cloneRetainedXOR2Chunk(chk)
	if err != nil {
		return err
	}

	cdm.chunkBuffer.put(ref, chkForBuffer)
	return nil
}

// cloneRetainedXOR2Chunk copies pooled XOR2 chunks so the mapper never keeps a
// chunk its owner will release to xor2ChunkPool.
func cloneRetainedXOR2Chunk(chk Chunk) (Chunk, error) {
	if chk.Encoding() != EncXOR2 {
		return chk, nil
	}
	return FromData(EncXOR2, bytes.Clone(chk.Bytes()))
}

// Chunk returns the chunk for the reference, from the buffer while it is there.
func (cdm *ChunkDiskMapper) Chunk(ref ChunkDiskMapperRef) (Chunk, error) {
	if c := cdm.chunkBuffer.get(ref); c != nil {
		return c, nil
	}
	return nil, errors.New("chunk not found")
}

// ---- head ----

type memChunk struct {
	chunk            Chunk
	minTime, maxTime int64
	prev             *memChunk
}

func (mc *memChunk) len() int {
	n := 0
	for c := mc; c != nil; c = c.prev {
		n++
	}
	return n
}

func (mc *memChunk) atOffset(i int) *memChunk {
	c := mc
	for ; i > 0 && c != nil; i-- {
		c = c.prev
	}
	return c
}

type mmappedChunk struct {
	ref              ChunkDiskMapperRef
	numSamples       uint16
	minTime, maxTime int64
}

type memSeries struct {
	ref           HeadSeriesRef
	headChunks    *memChunk
	mmappedChunks []*mmappedChunk
}

func handleChunkWriteError(err error) {
	if err != nil {
		panic(err)
	}
}

// mmapChunks will m-map all but first chunk on s.headChunks list.
func (s *memSeries) mmapChunks(chunkDiskMapper *ChunkDiskMapper) (count int) {
	if s.headChunks == nil || s.headChunks.prev == nil {
		return count
	}

	for i := s.headChunks.len() - 1; i > 0; i-- {
		chk := s.headChunks.atOffset(i)
		chunkRef := chunkDiskMapper.WriteChunk(s.ref, chk.minTime, chk.maxTime, chk.chunk, false, handleChunkWriteError)
		s.mmappedChunks = append(s.mmappedChunks, &mmappedChunk{
			ref:        chunkRef,
			numSamples: uint16(chk.chunk.NumSamples()),
			minTime:    chk.minTime,
			maxTime:    chk.maxTime,
		})
		if xor2c, ok := chk.chunk.(*XOR2Chunk); ok {
			ReleaseXOR2Chunk(xor2c)
		}
		count++
	}

	// Once we've written out all chunks except s.headChunks we need to unlink these from s.headChunk.
	s.headChunks.prev = nil

	return count
}
