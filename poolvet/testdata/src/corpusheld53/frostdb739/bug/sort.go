// Source: https://github.com/polarsignals/frostdb/pull/739
// (commit a5e5fe65463aaf2392c862a7f9087aec40eee9dc,
// pqarrow/builder/optbuilders.go and pqarrow/arrowutils/sort.go)
//
// Bug: arrowutils.SortRecord takes a *multiColSorter from
// multiColSorterPool, sorts the row indices held in its
// *builder.OptInt32Builder, defers ms.Release() (Reset + Put back into the
// sync.Pool) and returns ms.indices.NewArray(). NewArray wraps the builder's
// b.data backing array in the returned *array.Int32 and then only truncates
// it (b.data = b.data[:0]), so the pooled sorter keeps sharing that memory
// with the array the caller received. The next SortRecord that gets the same
// sorter from the pool Reserve()s/Set()s/Swap()s into the same backing array
// and rewrites the indices of the array that is still in use ("we don't
// reuse the builder's data for a concurrent existing array").
//
// Fix: NewArray (of OptInt32Builder and the other optimized builders) sets
// b.data = nil, so the array handed out no longer aliases memory that goes
// back to the pool with the sorter.
//
// Check: useafterput (at the return in SortRecord: the returned array's
// memory belongs to the sorter that the deferred ms.Release() puts back)
package bug

import (
	"errors"
	"slices"
	"sort"
	"sync"
	"unsafe"
)

// --- trimmed stand-ins for arrow's array/memory packages ---

type Array interface {
	Len() int
}

type Data struct {
	length  int
	buffers [][]byte
}

type Int32 struct {
	data   *Data
	values []int32
}

func (a *Int32) Len() int { return a.data.length }

func (a *Int32) Int32Values() []int32 { return a.values }

func NewInt32Data(data *Data) *Int32 {
	b := data.buffers[1]
	vals := unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
	return &Int32{data: data, values: vals}
}

// --- pqarrow/builder ---

type builderBase struct {
	length         int
	validityBitmap []byte
}

func (b *builderBase) reset() {
	b.length = 0
	b.validityBitmap = b.validityBitmap[:0]
}

func resizeBitmap(bitmap []byte, valuesToRepresent int) []byte {
	bytesNeeded := (valuesToRepresent + 7) / 8
	if cap(bitmap) < bytesNeeded {
		existingBitmap := bitmap
		bitmap = make([]byte, bytesNeeded*2)
		copy(bitmap, existingBitmap)
	}
	return bitmap[:bytesNeeded]
}

func setBit(bits []byte, i int) { bits[i/8] |= 1 << uint(i%8) }

// OptInt32Builder is an optimized int32 builder.
type OptInt32Builder struct {
	builderBase

	data []int32
}

func NewOptInt32Builder() *OptInt32Builder {
	return &OptInt32Builder{}
}

func (b *OptInt32Builder) NewArray() Array {
	dataAsBytes := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(b.data))), len(b.data)*4)
	data := &Data{
		length:  b.length,
		buffers: [][]byte{b.validityBitmap, dataAsBytes},
	}
	b.reset()
	b.data = b.data[:0]
	return NewInt32Data(data)
}

func (b *OptInt32Builder) Len() int { return b.length }

func (b *OptInt32Builder) Append(v int32) {
	b.data = append(b.data, v)
	b.length++
	b.validityBitmap = resizeBitmap(b.validityBitmap, b.length)
	setBit(b.validityBitmap, b.length-1)
}

func (b *OptInt32Builder) Set(i int, v int32) {
	b.data[i] = v
	setBit(b.validityBitmap, i)
}

func (b *OptInt32Builder) Swap(i, j int) {
	b.data[i], b.data[j] = b.data[j], b.data[i]
}

func (b *OptInt32Builder) Value(i int) int32 {
	return b.data[i]
}

func (b *OptInt32Builder) Reserve(n int) {
	b.length = n
	b.data = slices.Grow(b.data, n)[:n]
	b.validityBitmap = resizeBitmap(b.validityBitmap, n)
}

// --- pqarrow/arrowutils ---

type comparator interface {
	Compare(i, j int) int
}

type SortingColumn struct {
	Index int
}

type Record interface {
	NumRows() int64
	Column(i int) comparator
}

// SortRecord sorts given Record by columns. Returns *Int32 of indices to
// sorted rows or record r.
func SortRecord(r Record, columns []SortingColumn) (*Int32, error) {
	if len(columns) == 0 {
		return nil, errors.New("pqarrow/arrowutils: at least one column is needed for sorting")
	}
	ms, err := newMultiColSorter(r, columns)
	if err != nil {
		return nil, err
	}
	defer ms.Release()
	sort.Sort(ms)
	return ms.indices.NewArray().(*Int32), nil // want `useafterput`
}

type multiColSorter struct {
	indices     *OptInt32Builder
	comparisons []comparator
}

func newMultiColSorter(r Record, columns []SortingColumn) (*multiColSorter, error) {
	ms := multiColSorterPool.Get().(*multiColSorter)
	if r.NumRows() <= 1 {
		if r.NumRows() == 1 {
			ms.indices.Append(0)
		}
		return ms, nil
	}
	ms.Reserve(int(r.NumRows()), len(columns))
	for i, col := range columns {
		ms.comparisons[i] = r.Column(col.Index)
	}
	return ms, nil
}

func (m *multiColSorter) Reserve(rows, columns int) {
	m.indices.Reserve(rows)
	for i := 0; i < rows; i++ {
		m.indices.Set(i, int32(i))
	}
	m.comparisons = slices.Grow(m.comparisons, columns)[:columns]
}

func (m *multiColSorter) Reset() {
	m.indices.Reserve(0)
	m.comparisons = m.comparisons[:0]
}

func (m *multiColSorter) Release() {
	m.Reset()
	multiColSorterPool.Put(m)
}

var multiColSorterPool = &sync.Pool{
	New: func() any {
		return &multiColSorter{
			indices: NewOptInt32Builder(),
		}
	},
}

var _ sort.Interface = (*multiColSorter)(nil)

func (m *multiColSorter) Len() int { return m.indices.Len() }

func (m *multiColSorter) Less(i, j int) bool {
	for _, c := range m.comparisons {
		cmp := c.Compare(int(m.indices.Value(i)), int(m.indices.Value(j)))
		if cmp != 0 {
			return cmp < 0
		}
	}
	return false
}

func (m *multiColSorter) Swap(i, j int) {
	m.indices.Swap(i, j)
}
