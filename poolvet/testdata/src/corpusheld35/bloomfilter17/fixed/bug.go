// Package bug reproduces the shape of shaia/BloomFilter#17 (https://github.com/shaia/BloomFilter/pull/17,
// fix commit https://github.com/shaia/BloomFilter/commit/4b27e488d41e53d0cb794dd84488a8aa411a76d0):
// the cache-line-optimised Bloom filter takes a per-operation scratch storage from a sync.Pool and
// hands it back with a deferred Put. getHashPositionsOptimized returned, next to the bit positions,
// the list of touched cache lines, which is the scratch storage's own UsedIndicesHash slice; the
// deferred Put ran as the function returned, so Add and Contains prefetched from a slice that
// another goroutine could already be clearing and refilling. The fix returns a copy.
// Fixed: the touched cache lines are copied out before the deferred Put runs, and the storage is
// cleared in PutOperationStorage instead of GetOperationStorage, as in the fix.
package bug

import "sync"

const bitsPerCacheLine = 512

type OperationStorage struct {
	UseArrayMode    bool
	ArrayMap        *[1024][]uint64
	MapMap          map[uint64][]uint64
	UsedIndicesHash []uint64
}

func (os *OperationStorage) clear() {
	for _, idx := range os.UsedIndicesHash {
		if os.UseArrayMode {
			os.ArrayMap[idx] = os.ArrayMap[idx][:0]
		} else {
			delete(os.MapMap, idx)
		}
	}
	os.UsedIndicesHash = os.UsedIndicesHash[:0]
}

func (os *OperationStorage) AddHashPosition(cacheLineIdx, bitPos uint64) {
	if os.UseArrayMode {
		if len(os.ArrayMap[cacheLineIdx]) == 0 {
			os.UsedIndicesHash = append(os.UsedIndicesHash, cacheLineIdx)
		}
		os.ArrayMap[cacheLineIdx] = append(os.ArrayMap[cacheLineIdx], bitPos)
		return
	}
	if len(os.MapMap[cacheLineIdx]) == 0 {
		os.UsedIndicesHash = append(os.UsedIndicesHash, cacheLineIdx)
	}
	os.MapMap[cacheLineIdx] = append(os.MapMap[cacheLineIdx], bitPos)
}

// GetUsedHashIndices returns the cache lines touched by the current operation.
func (os *OperationStorage) GetUsedHashIndices() []uint64 {
	return os.UsedIndicesHash
}

var (
	arrayOpsPool = sync.Pool{
		New: func() interface{} {
			return &OperationStorage{
				UseArrayMode:    true,
				ArrayMap:        &[1024][]uint64{},
				UsedIndicesHash: make([]uint64, 0, 8),
			}
		},
	}
	mapOpsPool = sync.Pool{
		New: func() interface{} {
			return &OperationStorage{
				MapMap:          make(map[uint64][]uint64),
				UsedIndicesHash: make([]uint64, 0, 8),
			}
		},
	}
)

func GetOperationStorage(useArrayMode bool) *OperationStorage {
	var ops *OperationStorage
	if useArrayMode {
		ops = arrayOpsPool.Get().(*OperationStorage)
	} else {
		ops = mapOpsPool.Get().(*OperationStorage)
	}
	return ops
}

func PutOperationStorage(ops *OperationStorage) {
	if cap(ops.UsedIndicesHash) > 1024 {
		return
	}
	ops.clear()
	if ops.UseArrayMode {
		arrayOpsPool.Put(ops)
	} else {
		mapOpsPool.Put(ops)
	}
}

type CacheOptimizedBloomFilter struct {
	bits           []uint64
	bitCount       uint64
	cacheLineCount uint64
	hashCount      uint32
	useArrayMode   bool
}

func New(cacheLines uint64, hashCount uint32) *CacheOptimizedBloomFilter {
	return &CacheOptimizedBloomFilter{
		bits:           make([]uint64, cacheLines*bitsPerCacheLine/64),
		bitCount:       cacheLines * bitsPerCacheLine,
		cacheLineCount: cacheLines,
		hashCount:      hashCount,
		useArrayMode:   cacheLines <= 1024,
	}
}

func hash1(data []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, b := range data {
		h ^= uint64(b)
		h *= 1099511628211
	}
	return h
}

func hash2(data []byte) uint64 {
	h := uint64(5381)
	for _, b := range data {
		h = h*33 + uint64(b)
	}
	return h | 1
}

func (bf *CacheOptimizedBloomFilter) Add(data []byte) {
	positions, cacheLineIndices := bf.getHashPositionsOptimized(data)
	bf.prefetchCacheLines(cacheLineIndices)
	for _, p := range positions {
		bf.bits[p/64] |= 1 << (p % 64)
	}
}

func (bf *CacheOptimizedBloomFilter) Contains(data []byte) bool {
	positions, cacheLineIndices := bf.getHashPositionsOptimized(data)
	bf.prefetchCacheLines(cacheLineIndices)
	for _, p := range positions {
		if bf.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}

// getHashPositionsOptimized returns the bit positions and the cache lines to prefetch.
func (bf *CacheOptimizedBloomFilter) getHashPositionsOptimized(data []byte) ([]uint64, []uint64) {
	h1 := hash1(data)
	h2 := hash2(data)

	ops := GetOperationStorage(bf.useArrayMode)
	defer PutOperationStorage(ops)

	positions := make([]uint64, bf.hashCount)
	for i := uint32(0); i < bf.hashCount; i++ {
		bitPos := (h1 + uint64(i)*h2) % bf.bitCount
		positions[i] = bitPos
		ops.AddHashPosition(bitPos/bitsPerCacheLine, bitPos)
	}

	cacheLineIndices := ops.GetUsedHashIndices()
	cacheLinesCopy := make([]uint64, len(cacheLineIndices))
	copy(cacheLinesCopy, cacheLineIndices)
	return positions, cacheLinesCopy
}

var sink uint64

func (bf *CacheOptimizedBloomFilter) prefetchCacheLines(cacheLineIndices []uint64) {
	for _, idx := range cacheLineIndices {
		if idx < bf.cacheLineCount {
			sink += bf.bits[idx*bitsPerCacheLine/64]
		}
	}
}
