//go:build go1.21

// Source: https://github.com/siglens/siglens/pull/1972
// (merge commit dba5f8ae87cfb48dc33fccad22968a467e0c9c3a, "Fix for incorrect
// timestamps being read when PQS is enabled"; branch commit fcbfb27a "fix
// loop var bug").
//
// Bug: ReadAllTimestampsForBlock decodes every block's timestamps into a
// []uint64 taken from rawTimestampsBufferPool (a sync.Pool of *[]uint64) and
// returns them in a map; the caller defers ReturnTimeBuffers, which put them
// back with `for _, v := range og { rawTimestampsBufferPool.Put(&v) }`.
// siglens' go.mod said go 1.19, so v is one variable for the whole loop:
// every iteration puts the same pointer &v into the pool again. Later Gets
// hand that one *[]uint64 to several decoders at once, which then write their
// timestamps into the same backing array ("incorrect timestamps being read").
// The //go:build go1.21 line above keeps those pre-1.22 loop semantics.
//
// Fix: copy the map value into a variable declared inside the loop body and
// put the address of that variable (one distinct pointer per slice).
//
// Check: doubleput (the same pointer &v is put into the pool once per map
// entry; the report is expected at the Put inside the range loop)
package fixed

import (
	"encoding/binary"
	"errors"
	"log"
	"sync"
)

const DEFAULT_TIME_SLICE_SIZE = 1000

var rawTimestampsBufferPool = sync.Pool{
	New: func() interface{} {
		// The Pool's New function should generally only return pointer
		// types, since a pointer can be put into the return interface
		// value without an allocation:
		slice := make([]uint64, DEFAULT_TIME_SLICE_SIZE)
		return &slice
	},
}

type timeBlockRequest struct {
	tsRec   []byte
	blkNum  uint16
	numRecs uint16
}

func convertRawRecordsToTimestamps(rawRec []byte, numRecs uint16, bufToUse []uint64) ([]uint64, error) {
	if bufToUse == nil {
		bufToUse = make([]uint64, numRecs)
	}
	if currBufSize := len(bufToUse); int(numRecs) > currBufSize {
		toAdd := int(numRecs) - currBufSize
		newSlice := make([]uint64, toAdd)
		bufToUse = append(bufToUse, newSlice...)
	}
	if len(rawRec) < int(numRecs)*8 {
		return nil, errors.New("convertRawRecordsToTimestamps: short block")
	}
	for i := uint16(0); i < numRecs; i++ {
		bufToUse[i] = binary.LittleEndian.Uint64(rawRec[int(i)*8:])
	}
	return bufToUse[:numRecs], nil
}

// When the caller of this function is done with retVal, they should call
// ReturnTimeBuffers(retVal) to return the buffers to rawTimestampsBufferPool.
func processTimeBlocks(allRequests chan *timeBlockRequest, wg *sync.WaitGroup, retVal map[uint16][]uint64,
	retLock *sync.Mutex) {
	defer wg.Done()
	for req := range allRequests {
		bufToUse := *rawTimestampsBufferPool.Get().(*[]uint64)
		decoded, err := convertRawRecordsToTimestamps(req.tsRec, req.numRecs, bufToUse)
		if err != nil {
			log.Printf("processTimeBlocks: convertRawRecordsToTimestamps failed, err: %+v", err)
			continue
		}
		retLock.Lock()
		retVal[req.blkNum] = decoded
		retLock.Unlock()
	}
}

// When the caller of this function is done with the returned map, they should
// call ReturnTimeBuffers() on it to return the buffers to rawTimestampsBufferPool.
func ReadAllTimestampsForBlock(rawBlocks map[uint16][]byte, recCounts map[uint16]uint16,
	parallelism int64) (map[uint16][]uint64, error) {

	retVal := make(map[uint16][]uint64)
	var retLock sync.Mutex
	allReadJob := make(chan *timeBlockRequest)
	var readerWG sync.WaitGroup
	for i := int64(0); i < parallelism; i++ {
		readerWG.Add(1)
		go processTimeBlocks(allReadJob, &readerWG, retVal, &retLock)
	}
	for blkNum, raw := range rawBlocks {
		allReadJob <- &timeBlockRequest{tsRec: raw, blkNum: blkNum, numRecs: recCounts[blkNum]}
	}
	close(allReadJob)
	readerWG.Wait()
	return retVal, nil
}

func ReturnTimeBuffers(og map[uint16][]uint64) {
	for k := range og {
		// Due to a bug in Go 1.19, scope of the loop variable is per loop not per iteration
		// and thus inserting the same value multiple times in the pool which can cause the same pointer
		// to a slice being returned multiple times.
		// Refer https://go.dev/blog/loopvar-preview and https://github.com/golang/go/discussions/56010 for more details.
		timeBuffer := og[k]
		rawTimestampsBufferPool.Put(&timeBuffer)
	}
}

// ---- pkg/segment/search/segsearch.go ----

func RawSearchPQMResults(rawBlocks map[uint16][]byte, recCounts map[uint16]uint16, fileParallelism int64,
	process func(blkNum uint16, ts []uint64)) error {

	allTimestamps, err := ReadAllTimestampsForBlock(rawBlocks, recCounts, fileParallelism)
	if err != nil {
		return err
	}
	defer ReturnTimeBuffers(allTimestamps)

	for blkNum, ts := range allTimestamps {
		process(blkNum, ts)
	}
	return nil
}
