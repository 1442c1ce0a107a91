package fixed

import "io"

var globalBytePoolCap *BytePoolCap

type Erasure struct {
	dataBlocks int
	blockSize  int64
	shardSize  int64
}

func (e Erasure) ShardSize() int64 { return e.shardSize }

// parallelReader reads the shards of an erasure coded object in parallel.
type parallelReader struct {
	readers     []io.ReaderAt
	dataBlocks  int
	offset      int64
	shardSize   int64
	buf         [][]byte
	readerToBuf []int
	stashBuffer []byte
}

// newParallelReader returns parallelReader.
func newParallelReader(readers []io.ReaderAt, e Erasure, offset int64) *parallelReader {
	r2b := make([]int, len(readers))
	for i := range r2b {
		r2b[i] = i
	}
	bufs := make([][]byte, len(readers))
	shardSize := int(e.ShardSize())
	var b []byte

	// We should always have enough capacity, but older objects may be bigger
	// we do not need stashbuffer for them.
	if globalBytePoolCap.WidthCap() >= len(readers)*shardSize {
		// Fill buffers
		b = globalBytePoolCap.Get()
		// Seed the buffers.
		for i := range bufs {
			bufs[i] = b[i*shardSize : (i+1)*shardSize]
		}
	}

	return &parallelReader{
		readers:     readers,
		dataBlocks:  e.dataBlocks,
		offset:      (offset / e.blockSize) * e.ShardSize(),
		shardSize:   e.ShardSize(),
		buf:         make([][]byte, len(readers)),
		readerToBuf: r2b,
		stashBuffer: b,
	}
}

// Done will release any resources used by the parallelReader.
func (p *parallelReader) Done() {
	if p.stashBuffer != nil {
		globalBytePoolCap.Put(p.stashBuffer)
		p.stashBuffer = nil
	}
}

func newErasureServerPools(n uint64, blockSizeV2 int) {
	buffers := NewBytePoolCap(n, blockSizeV2, blockSizeV2*2)
	buffers.Populate()
	globalBytePoolCap = buffers
}
