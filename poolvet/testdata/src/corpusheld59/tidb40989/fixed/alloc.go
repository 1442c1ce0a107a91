// Source: https://github.com/pingcap/tidb/pull/40989
// (issue https://github.com/pingcap/tidb/issues/40987, "Memory leak when
// enable tidb_enable_reuse_chunk").
//
// Bug: util/chunk's allocator recycles chunk columns through its own free
// lists (columnList.allocColumns / columnList.freeColumns). Reset() moved the
// allocated columns into freeColumns and truncated allocColumns with [:0],
// and pop() took the last free column and truncated freeColumns with
// [:len-1], but neither cleared the slot it dropped. The backing arrays kept
// pointing at the old *Column objects (and their data, e.g. whole RPC
// responses from TiFlash), so the memory of a finished query stayed alive
// until the connection closed.
//
// Fix: "Unlink the reference to the chunk for freeColumns.allocColumns and
// freeColumns.freeColumns": Reset sets pool.allocColumns[i] = nil and pop
// sets cList.freeColumns[len-1] = nil before truncating.
//
// Check: noreset (the free-list recycling code truncates the slices without
// clearing the dropped slots, so recycled columns keep references to the
// previous user's large data: reported at the truncation in Reset and in pop)
package fixed

import "math"

// FieldType stands in for types.FieldType.
type FieldType struct {
	fixedLen int
}

const varElemLen = -1

func getFixedLen(ft *FieldType) int { return ft.fixedLen }

// Column stands in for chunk.Column.
type Column struct {
	length       int
	nullBitmap   []byte
	offsets      []int64
	data         []byte
	elemBuf      []byte
	avoidReusing bool
}

func newColumn(typeSize, capacity int) *Column {
	if typeSize == varElemLen {
		return &Column{
			offsets: make([]int64, 1, capacity+1),
			data:    make([]byte, 0, capacity*8),
		}
	}
	return &Column{
		data:    make([]byte, 0, typeSize*capacity),
		elemBuf: make([]byte, typeSize),
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
	columns      []*Column
	capacity     int
	requiredRows int
}

func (c *Chunk) resetForReuse() {
	for i := range c.columns {
		c.columns[i] = nil
	}
	c.columns = c.columns[:0]
}

// Allocator is an interface defined to reduce object allocation.
type Allocator interface {
	Alloc(fields []*FieldType, capacity, maxChunkSize int) *Chunk
	CheckReuseAllocSize() bool
	Reset()
}

var maxFreeChunks = 64
var maxFreeColumnsPerType = 256

// InitChunkAllocSize init the maximum cache size
func InitChunkAllocSize(setMaxFreeChunks, setMaxFreeColumns uint32) {
	if setMaxFreeChunks > math.MaxInt32 {
		setMaxFreeChunks = math.MaxInt32
	}
	if setMaxFreeColumns > math.MaxInt32 {
		setMaxFreeColumns = math.MaxInt32
	}
	maxFreeChunks = int(setMaxFreeChunks)
	maxFreeColumnsPerType = int(setMaxFreeColumns)
}

// NewAllocator creates an Allocator.
func NewAllocator() *allocator {
	ret := &allocator{freeChunk: maxFreeChunks}
	ret.columnAlloc.init()
	return ret
}

var _ Allocator = &allocator{}

// MaxCachedLen Maximum cacheable length
var MaxCachedLen = 16 * 1024

type allocator struct {
	columnAlloc poolColumnAllocator
	allocated   []*Chunk
	free        []*Chunk
	freeChunk   int
}

// columnList keep column
type columnList struct {
	freeColumns  []*Column
	allocColumns []*Column
}

func (cList *columnList) add(col *Column) {
	cList.freeColumns = append(cList.freeColumns, col)
}

// CheckReuseAllocSize return whether the cache can cache objects
func (a *allocator) CheckReuseAllocSize() bool {
	return a.freeChunk > 0 || a.columnAlloc.freeColumnsPerType > 0
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Alloc implements the Allocator interface.
func (a *allocator) Alloc(fields []*FieldType, capacity, maxChunkSize int) *Chunk {
	var chk *Chunk
	// Try to alloc from the free list.
	if len(a.free) > 0 {
		chk = a.free[len(a.free)-1]
		a.free = a.free[:len(a.free)-1]
	} else {
		chk = &Chunk{columns: make([]*Column, 0, len(fields))}
	}

	// Init the chunk fields.
	chk.capacity = minInt(capacity, maxChunkSize)
	chk.requiredRows = maxChunkSize
	// Allocate the chunk columns from the pool column allocator.
	for _, f := range fields {
		chk.columns = append(chk.columns, a.columnAlloc.NewColumn(f, chk.capacity))
	}

	//avoid OOM
	if a.freeChunk > len(a.allocated) {
		a.allocated = append(a.allocated, chk)
	}

	return chk
}

// Reset implements the Allocator interface.
func (a *allocator) Reset() {
	for i, chk := range a.allocated {
		a.allocated[i] = nil
		chk.resetForReuse()
		if len(a.free) < a.freeChunk { // Don't cache too much data.
			a.free = append(a.free, chk)
		}
	}
	a.allocated = a.allocated[:0]

	//column objects and put them to the column allocator for reuse.
	for id, pool := range a.columnAlloc.pool {
		for i, col := range pool.allocColumns {
			if (len(pool.freeColumns) < a.columnAlloc.freeColumnsPerType) && checkColumnType(id, col) {
				col.reset()
				pool.freeColumns = append(pool.freeColumns, col)
			}
			pool.allocColumns[i] = nil
		}
		pool.allocColumns = pool.allocColumns[:0]
	}
}

// checkColumnType check whether the conditions for entering the corresponding queue are met
func checkColumnType(id int, col *Column) bool {
	if col.avoidReusing {
		return false
	}

	if id == varElemLen {
		//Take up too much memory,
		if cap(col.data) > MaxCachedLen {
			return false
		}
		return col.elemBuf == nil
	}

	if col.elemBuf == nil {
		return false
	}
	return id == cap(col.elemBuf)
}

type poolColumnAllocator struct {
	pool               map[int]*columnList
	freeColumnsPerType int
}

// NewColumn implements the ColumnAllocator interface.
func (alloc *poolColumnAllocator) NewColumn(ft *FieldType, count int) *Column {
	typeSize := getFixedLen(ft)
	col := alloc.NewSizeColumn(typeSize, count)

	//column objects and put them back to the allocated column .
	alloc.put(col)
	return col
}

// NewSizeColumn implements the ColumnAllocator interface.
func (alloc *poolColumnAllocator) NewSizeColumn(typeSize int, count int) *Column {
	l := alloc.pool[typeSize]
	if l != nil && !l.empty() {
		col := l.pop()

		if cap(col.data) < count {
			col = newColumn(typeSize, count)
		}
		return col
	}
	return newColumn(typeSize, count)
}

func (cList *columnList) pop() *Column {
	if len(cList.freeColumns) == 0 {
		return nil
	}
	col := cList.freeColumns[len(cList.freeColumns)-1]
	cList.freeColumns[len(cList.freeColumns)-1] = nil
	cList.freeColumns = cList.freeColumns[:len(cList.freeColumns)-1]
	return col
}

func (alloc *poolColumnAllocator) init() {
	alloc.pool = make(map[int]*columnList)
	alloc.freeColumnsPerType = maxFreeColumnsPerType
}

func (alloc *poolColumnAllocator) put(col *Column) {
	if col.avoidReusing {
		return
	}
	typeSize := col.typeSize()
	if typeSize <= 0 && typeSize != varElemLen {
		return
	}

	l := alloc.pool[typeSize]
	if l == nil {
		l = &columnList{freeColumns: nil, allocColumns: nil}
		l.freeColumns = make([]*Column, 0, alloc.freeColumnsPerType)
		l.allocColumns = make([]*Column, 0, alloc.freeColumnsPerType)
		alloc.pool[typeSize] = l
	}
	if len(l.allocColumns) < alloc.freeColumnsPerType {
		l.push(col)
	}
}

func (cList *columnList) empty() bool {
	return len(cList.freeColumns) == 0
}

func (cList *columnList) push(col *Column) {
	if cap(col.data) < MaxCachedLen {
		cList.allocColumns = append(cList.allocColumns, col)
	}
}
