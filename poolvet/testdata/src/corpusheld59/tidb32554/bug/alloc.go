// Source: https://github.com/pingcap/tidb/pull/32554
// (issues https://github.com/pingcap/tidb/issues/31981 and
// https://github.com/pingcap/tidb/issues/30880; cherry-pick #32578).
//
// Bug: with chunk RPC, Codec.decodeColumn builds the chunk columns directly
// on top of the RPC message: col.data = buffer[:numDataBytes:numDataBytes].
// The per-connection chunk allocator recycles the columns of every chunk it
// handed out: Reset() decouples each allocated chunk into its columns and
// puts them into poolColumnAllocator's free lists. A column decoded from an
// RPC response therefore went into the pool still pointing into the whole
// response buffer, so "Chunk-rpc will use rpc message to construct chunk
// directly, which will hold the whole memory" and exporting data OOMed TiDB.
//
// Fix: the decoder marks such columns with avoidReusing = true ("the column
// reference the data of grpc response, the memory will be hold for a long
// time") and the column allocator's put() returns early for them, so they
// are never kept by the pool.
//
// Check: noreset (a column whose data still references the previous user's
// large RPC buffer is put back into the column pool: reported at the push in
// poolColumnAllocator.put)
package bug

import "encoding/binary"

// FieldType stands in for types.FieldType.
type FieldType struct {
	fixedLen int
}

const varElemLen = -1

func getFixedLen(ft *FieldType) int { return ft.fixedLen }

// Column stands in for chunk.Column.
type Column struct {
	length     int
	nullBitmap []byte
	offsets    []int64
	data       []byte
	elemBuf    []byte
}

func newFixedLenColumn(elemLen, capacity int) *Column {
	return &Column{
		elemBuf:    make([]byte, elemLen),
		data:       make([]byte, 0, capacity*elemLen),
		nullBitmap: make([]byte, 0, (capacity+7)>>3),
	}
}

func (c *Column) typeSize() int {
	if len(c.elemBuf) > 0 {
		return len(c.elemBuf)
	}
	return varElemLen
}

func (c *Column) reset() {
	c.length = 0
	c.nullBitmap = c.nullBitmap[:0]
	if len(c.offsets) > 0 {
		c.offsets = c.offsets[:1]
	}
	c.data = c.data[:0]
}

// Chunk stands in for chunk.Chunk.
type Chunk struct {
	columns  []*Column
	capacity int
}

func (c *Chunk) resetForReuse() {
	for i := range c.columns {
		c.columns[i] = nil
	}
	c.columns = c.columns[:0]
}

// Codec is used to encode and decode chunk to and from a byte slice.
type Codec struct {
	colTypes []*FieldType
}

// DecodeToChunk decodes a Chunk from a byte slice, return the remained unused bytes.
func (c *Codec) DecodeToChunk(buffer []byte, chk *Chunk) (remained []byte) {
	for i := 0; i < len(chk.columns); i++ {
		buffer = c.decodeColumn(buffer, chk.columns[i], i)
	}
	return buffer
}

// decodeColumn decodes a Column from a byte slice, return the remained unused bytes.
func (c *Codec) decodeColumn(buffer []byte, col *Column, ordinal int) (remained []byte) {
	// Todo(Shenghui Wu): Optimize all data is null.
	// decode length.
	col.length = int(binary.LittleEndian.Uint32(buffer))
	buffer = buffer[4:]

	// decode nullCount.
	nullCount := int(binary.LittleEndian.Uint32(buffer))
	buffer = buffer[4:]

	// decode nullBitmap.
	if nullCount > 0 {
		numNullBitmapBytes := (col.length + 7) / 8
		col.nullBitmap = buffer[:numNullBitmapBytes:numNullBitmapBytes]
		buffer = buffer[numNullBitmapBytes:]
	}

	// decode offsets.
	numFixedBytes := getFixedLen(c.colTypes[ordinal])
	numDataBytes := int64(numFixedBytes * col.length)
	if numFixedBytes == -1 {
		numOffsetBytes := (col.length + 1) * 8
		col.offsets = make([]int64, col.length+1)
		for i := range col.offsets {
			col.offsets[i] = int64(binary.LittleEndian.Uint64(buffer[i*8:]))
		}
		buffer = buffer[numOffsetBytes:]
		numDataBytes = col.offsets[col.length]
	} else if cap(col.elemBuf) < numFixedBytes {
		col.elemBuf = make([]byte, numFixedBytes)
	}

	// decode data.
	col.data = buffer[:numDataBytes:numDataBytes]
	return buffer[numDataBytes:]
}

// Allocator is an interface defined to reduce object allocation.
// The typical usage is to call Reset() to recycle objects into a pool,
// and Alloc() allocates from the pool.
type Allocator interface {
	Alloc(fields []*FieldType, cap, maxChunkSize int) *Chunk
	Reset()
}

// NewAllocator creates an Allocator.
func NewAllocator() *allocator {
	ret := &allocator{}
	ret.columnAlloc.init()
	return ret
}

var _ Allocator = &allocator{}

// allocator try to reuse objects.
// It uses `poolColumnAllocator` to alloc chunk column objects.
// The allocated chunks are recorded in the `allocated` array.
// After Reset(), those chunks are decoupled into chunk column objects and get
// into `poolColumnAllocator` again for reuse.
type allocator struct {
	allocated   []*Chunk
	free        []*Chunk
	columnAlloc poolColumnAllocator
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Alloc implements the Allocator interface.
func (a *allocator) Alloc(fields []*FieldType, cap, maxChunkSize int) *Chunk {
	var chk *Chunk
	// Try to alloc from the free list.
	if len(a.free) > 0 {
		chk = a.free[len(a.free)-1]
		a.free = a.free[:len(a.free)-1]
	} else {
		chk = &Chunk{columns: make([]*Column, 0, len(fields))}
	}

	// Init the chunk fields.
	chk.capacity = minInt(cap, maxChunkSize)
	// Allocate the chunk columns from the pool column allocator.
	for _, f := range fields {
		chk.columns = append(chk.columns, a.columnAlloc.NewColumn(f, chk.capacity))
	}

	a.allocated = append(a.allocated, chk)
	return chk
}

const (
	maxFreeChunks         = 64
	maxFreeColumnsPerType = 256
)

// Reset implements the Allocator interface.
func (a *allocator) Reset() {
	a.free = a.free[:0]
	for i, chk := range a.allocated {
		a.allocated[i] = nil
		// Decouple chunk into chunk column objects and put them back to the column allocator for reuse.
		for _, col := range chk.columns {
			a.columnAlloc.put(col)
		}
		// Reset the chunk and put it to the free list for reuse.
		chk.resetForReuse()

		if len(a.free) < maxFreeChunks { // Don't cache too much data.
			a.free = append(a.free, chk)
		}
	}
	a.allocated = a.allocated[:0]
}

type poolColumnAllocator struct {
	pool map[int]freeList
}

func (alloc *poolColumnAllocator) init() {
	alloc.pool = make(map[int]freeList)
}

// NewColumn implements the ColumnAllocator interface.
func (alloc *poolColumnAllocator) NewColumn(ft *FieldType, count int) *Column {
	typeSize := getFixedLen(ft)
	l := alloc.pool[typeSize]
	if l != nil && !l.empty() {
		col := l.pop()
		return col
	}
	return newFixedLenColumn(typeSize, count)
}

func (alloc *poolColumnAllocator) put(col *Column) {
	typeSize := col.typeSize()
	if typeSize <= 0 {
		return
	}

	l := alloc.pool[typeSize]
	if l == nil {
		l = make(map[*Column]struct{}, 8)
		alloc.pool[typeSize] = l
	}
	l.push(col) // want `noreset`
}

// freeList is defined as a map, rather than a list, because when recycling chunk
// columns, there could be duplicated one: some of the chunk columns are just the
// reference to the others.
type freeList map[*Column]struct{}

func (l freeList) empty() bool {
	return len(l) == 0
}

func (l freeList) pop() *Column {
	for k := range l {
		delete(l, k)
		return k
	}
	return nil
}

func (l freeList) push(c *Column) {
	if len(l) >= maxFreeColumnsPerType {
		// Don't cache too much to save memory.
		return
	}
	c.reset()
	l[c] = struct{}{}
}
