// Source: https://github.com/siglens/siglens/commit/99cdff14f99c3e990dfb34a7d7e20da9ba4ade63
// (in https://github.com/siglens/siglens/pull/2561, "segreader now uses pooled
// memory for raw block buffer"): "Defering return of the buffer to pool till
// function return so as to make sure that the buffer is processed and safe to
// return".
//
// Bug: ReadAllTimestampsForBlock reads a run of consecutive timestamp blocks
// into a buffer taken from the segreader size-class memory pools, slices it
// into one rawBlock per block and sends each sub-slice over the allReadJob
// channel to the processTimeBlocks worker goroutines. Right after the send
// loop it returned rawChunk to the pool with segreader.PutBufToPool, although
// the workers may not have decoded the sub-slices yet; the next
// GetBufFromPool (the next chunk of the same loop, or any other reader) gets
// the same memory and overwrites the timestamps being decoded.
//
// Fix: the PutBufToPool call moved into a defer, so the buffer goes back to
// the pool only when the function returns, after close(allReadJob) and
// readerWG.Wait().
//
// Check: useafterput (the sub-slices of rawChunk are handed to worker
// goroutines over a channel and rawChunk is then put back to the pool; the
// report is expected at the PutBufToPool call after the hand-off)
package fixed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log"
	"sort"
	"sync"
	"unsafe"
)

// ---- pkg/memorypool ----

type MemoryPool struct {
	items                 []poolItem
	mutex                 sync.Mutex
	defaultBufferCapacity uint64
}

type poolItem struct {
	buffer  []byte
	inUse   bool
	pointer unsafe.Pointer
}

func NewMemoryPool(numInitialItems int, defaultBufferCapacity uint64) *MemoryPool {
	pool := &MemoryPool{
		items:                 make([]poolItem, 0, numInitialItems),
		defaultBufferCapacity: defaultBufferCapacity,
	}
	for i := 0; i < numInitialItems; i++ {
		pool.items = append(pool.items, newItem(defaultBufferCapacity, false))
	}
	return pool
}

func newItem(bufferCapacity uint64, inUse bool) poolItem {
	buffer := make([]byte, bufferCapacity)
	return poolItem{
		buffer:  buffer[:0],
		inUse:   inUse,
		pointer: unsafe.Pointer(&buffer[0]),
	}
}

func pointerOfSlice(buffer []byte) unsafe.Pointer {
	if cap(buffer) == 0 {
		return nil
	}
	if len(buffer) == 0 {
		buffer = buffer[:1]
	}
	return unsafe.Pointer(&buffer[0])
}

func (self *MemoryPool) Get(minCapacity uint64) []byte {
	self.mutex.Lock()
	defer self.mutex.Unlock()

	for i := range self.items {
		if !self.items[i].inUse {
			if cap(self.items[i].buffer) < int(minCapacity) {
				self.items[i].buffer = make([]byte, 0, minCapacity)
				self.items[i].pointer = pointerOfSlice(self.items[i].buffer)
			}
			self.items[i].buffer = self.items[i].buffer[:0]
			self.items[i].inUse = true
			return self.items[i].buffer
		}
	}

	// All items are in use, so make a new item.
	item := newItem(max(minCapacity, self.defaultBufferCapacity), true)
	self.items = append(self.items, item)
	return item.buffer
}

func (self *MemoryPool) Put(buffer []byte) error {
	self.mutex.Lock()
	defer self.mutex.Unlock()

	bufferPointer := pointerOfSlice(buffer)
	for i := range self.items {
		if self.items[i].pointer == bufferPointer {
			self.items[i].inUse = false
			return nil
		}
	}
	return errors.New("Buffer not found in the pool")
}

// ---- pkg/segment/reader/segread/segreader ----

const (
	S_4_KB  = 4096
	S_64_KB = 65536
	S_1_MB  = 1048576
)

var (
	pool4K  = NewMemoryPool(0, S_4_KB)
	pool64K = NewMemoryPool(0, S_64_KB)
	pool1M  = NewMemoryPool(0, S_1_MB)
)

func GetBufFromPool(size int64) []byte {
	switch {
	case size <= S_4_KB:
		return pool4K.Get(S_4_KB)[:size]
	case size <= S_64_KB:
		return pool64K.Get(S_64_KB)[:size]
	case size <= S_1_MB:
		return pool1M.Get(S_1_MB)[:size]
	default:
		return make([]byte, 0, size) // too big, don't pool
	}
}

func PutBufToPool(buf []byte) error {
	switch cap(buf) {
	case S_4_KB:
		return pool4K.Put(buf)
	case S_64_KB:
		return pool64K.Put(buf)
	case S_1_MB:
		return pool1M.Put(buf)
	default:
		return nil
	}
}

// ---- pkg/segment/reader/segread/timereader.go ----

type timeBlockRequest struct {
	tsRec   []byte
	blkNum  uint16
	numRecs uint16
}

// BlockOffAndLen is the location of one block of the timestamp column.
type BlockOffAndLen struct {
	Offset int64
	Length uint32
}

var rawTimestampsBufferPool = sync.Pool{
	New: func() interface{} {
		slice := make([]uint64, 0, 64)
		return &slice
	},
}

func convertRawRecordsToTimestamps(rawRec []byte, numRecs uint16, bufToUse []uint64) ([]uint64, error) {
	if len(rawRec) < int(numRecs)*8 {
		return bufToUse, fmt.Errorf("convertRawRecordsToTimestamps: expected %d records", numRecs)
	}
	bufToUse = bufToUse[:0]
	for i := uint16(0); i < numRecs; i++ {
		bufToUse = append(bufToUse, binary.LittleEndian.Uint64(rawRec[int(i)*8:]))
	}
	return bufToUse, nil
}

func readChunkFromFile(fd io.ReaderAt, buf []byte, blkLen uint32, blkOff int64) ([]byte, error) {
	buf = buf[:blkLen]
	_, err := fd.ReadAt(buf, blkOff)
	if err != nil {
		return nil, err
	}
	return buf, nil
}

func processTimeBlocks(allRequests chan *timeBlockRequest, wg *sync.WaitGroup, retVal map[uint16][]uint64,
	retLock *sync.Mutex,
) {
	defer wg.Done()
	var err error
	var decoded []uint64
	for req := range allRequests {
		bufToUse := *rawTimestampsBufferPool.Get().(*[]uint64)
		decoded, err = convertRawRecordsToTimestamps(req.tsRec, req.numRecs, bufToUse)
		if err != nil {
			continue
		}
		retLock.Lock()
		retVal[req.blkNum] = decoded
		retLock.Unlock()
	}
}

func ReadAllTimestampsForBlock(blkNums map[uint16]struct{}, fd io.ReaderAt, blockOffs map[uint16]BlockOffAndLen,
	recCounts map[uint16]uint16, parallelism int64,
) (map[uint16][]uint64, error) {
	if len(blkNums) == 0 {
		return make(map[uint16][]uint64), nil
	}

	allBlocks := make([]uint16, 0)
	for n := range blkNums {
		allBlocks = append(allBlocks, n)
	}
	sort.Slice(allBlocks, func(i, j int) bool {
		return allBlocks[i] < allBlocks[j]
	})

	retVal := make(map[uint16][]uint64)
	var retLock sync.Mutex
	allReadJob := make(chan *timeBlockRequest)
	var readerWG sync.WaitGroup
	for i := int64(0); i < parallelism; i++ {
		readerWG.Add(1)
		go processTimeBlocks(allReadJob, &readerWG, retVal, &retLock)
	}

	var retErr error
	for minIdx, maxIdx := 0, 0; minIdx < len(allBlocks); minIdx = maxIdx + 1 {
		minBlkNum := allBlocks[minIdx]
		lastBlkNum := minBlkNum
		cOffLen := blockOffs[minBlkNum]
		firstBlkOff := cOffLen.Offset
		blkLen := cOffLen.Length
		maxIdx = minIdx
		for {
			nextIdx := maxIdx + 1
			if nextIdx >= len(allBlocks) {
				break
			}
			nextBlkNum := allBlocks[nextIdx]
			if nextBlkNum == lastBlkNum+1 {
				maxIdx++
				blkLen += blockOffs[nextBlkNum].Length
				lastBlkNum = nextBlkNum
			} else {
				break
			}
		}
		buffer := GetBufFromPool(int64(blkLen))
		rawChunk, err := readChunkFromFile(fd, buffer, blkLen, firstBlkOff)
		if err != nil {
			retErr = fmt.Errorf("ReadAllTimestampsForBlock: Failed to read chunk of length: %v and offset: %v, err: %+v", blkLen, firstBlkOff, err)
			continue
		}
		defer func() {
			err := PutBufToPool(rawChunk)
			if err != nil {
				log.Printf("Timereader.ReadAllTimestampsForBlock: Error putting raw block buffer back to pool, err: %v", err)
			}
		}()

		readOffset := int64(0)
		for currBlk := minBlkNum; currBlk <= allBlocks[maxIdx]; currBlk++ {
			readLen := int64(blockOffs[currBlk].Length)
			rawBlock := rawChunk[readOffset : readOffset+readLen]
			numRecs := recCounts[currBlk]
			allReadJob <- &timeBlockRequest{tsRec: rawBlock, blkNum: currBlk, numRecs: numRecs}
			readOffset += readLen
		}
	}
	close(allReadJob)
	readerWG.Wait()
	return retVal, retErr
}
