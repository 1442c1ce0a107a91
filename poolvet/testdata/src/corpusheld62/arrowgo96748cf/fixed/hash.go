// Source: https://github.com/apache/arrow-go/commit/96748cf9e9cee7f0b1e7790ac277ee0acf8d342d
// ("fix(compute): reset released dictionary memo tables", in
// https://github.com/apache/arrow-go/pull/1140, with the regression test
// TestDictionaryEncodeStateResetAfterFinalize)
//
// Bug: dictionaryEncodeFinalize defers releaseHashMemo, which calls
// BinaryMemoTable.Release: the memo table's reference-counted builder drops to
// zero and its buffers go back to the allocator. The kernel state keeps the
// released memo table in regularHashState.memoTable, and the state is reused:
// Reset calls memoTable.Reset on the released table and the next Append /
// finalize works on (and releases again) memory the allocator already owns.
//
// Fix: releaseHashMemo records memoReleased (and does not release twice);
// Reset builds a fresh memo table when the old one was released.
//
// Check: useafterput (the memo table stays referenced from the long-lived
// kernel state field when it is released; the report is expected at the
// Release in releaseHashMemo)
package fixed

import "sync/atomic"

type Allocator interface {
	Allocate(size int) []byte
	Free(b []byte)
}

// binaryBuilder mirrors array.BinaryBuilder: reference counted, its buffers
// are returned to mem when the count drops to zero.
type binaryBuilder struct {
	refCount int64
	mem      Allocator
	offsets  []int32
	values   []byte
}

func newBinaryBuilder(mem Allocator) *binaryBuilder {
	return &binaryBuilder{refCount: 1, mem: mem, values: mem.Allocate(0)}
}

func (b *binaryBuilder) Retain() { atomic.AddInt64(&b.refCount, 1) }

func (b *binaryBuilder) Release() {
	if atomic.AddInt64(&b.refCount, -1) == 0 {
		b.mem.Free(b.values)
		b.values = nil
		b.offsets = nil
	}
}

func (b *binaryBuilder) Append(v []byte) {
	b.offsets = append(b.offsets, int32(len(b.values)))
	b.values = append(b.values, v...)
}

func (b *binaryBuilder) ResetFull() {
	b.offsets = b.offsets[:0]
	b.values = b.values[:0]
}

type MemoTable interface {
	Reset()
	GetOrInsert(v []byte) (int, bool)
}

// BinaryMemoTable mirrors hashing.BinaryMemoTable.
type BinaryMemoTable struct {
	tbl     map[string]int
	builder *binaryBuilder
}

func NewBinaryMemoTable(mem Allocator) *BinaryMemoTable {
	return &BinaryMemoTable{tbl: make(map[string]int), builder: newBinaryBuilder(mem)}
}

func (b *BinaryMemoTable) Reset() {
	b.tbl = make(map[string]int)
	b.builder.ResetFull()
}

func (b *BinaryMemoTable) GetOrInsert(v []byte) (int, bool) {
	if idx, ok := b.tbl[string(v)]; ok {
		return idx, true
	}
	idx := len(b.tbl)
	b.tbl[string(v)] = idx
	b.builder.Append(v)
	return idx, false
}

// Release is used to tell the underlying builder that it can release the memory allocated
// when the reference count reaches 0
func (b *BinaryMemoTable) Release() { b.builder.Release() }

type regularHashState struct {
	mem          Allocator
	memoTable    MemoTable
	indices      []int32
	memoReleased bool
}

func (rhs *regularHashState) Reset() error {
	if rhs.memoReleased {
		rhs.memoTable = NewBinaryMemoTable(rhs.mem)
		rhs.memoReleased = false
	} else {
		rhs.memoTable.Reset()
	}
	rhs.indices = rhs.indices[:0]
	return nil
}

func (rhs *regularHashState) Append(values [][]byte) {
	for _, v := range values {
		idx, _ := rhs.memoTable.GetOrInsert(v)
		rhs.indices = append(rhs.indices, int32(idx))
	}
}

func dictionaryEncodeFinalize(state *regularHashState) []int32 {
	defer releaseHashMemo(state)
	return append([]int32(nil), state.indices...)
}

func releaseHashMemo(state *regularHashState) {
	if memo, ok := state.memoTable.(*BinaryMemoTable); ok && !state.memoReleased {
		memo.Release()
		state.memoReleased = true
	}
}

// encodeChunks runs the kernel state over several inputs, resetting it
// between them as the executor does.
func encodeChunks(mem Allocator, chunks [][][]byte) [][]int32 {
	state := &regularHashState{mem: mem, memoTable: NewBinaryMemoTable(mem)}
	var out [][]int32
	for _, c := range chunks {
		if err := state.Reset(); err != nil {
			return nil
		}
		state.Append(c)
		out = append(out, dictionaryEncodeFinalize(state))
	}
	return out
}
