// Package bug reproduces the shape of olric-data/olric commit c6f8061
// (https://github.com/olric-data/olric/commit/c6f80618b4b9a9690e0924d8efc16215b5ba9910):
// the kvstore keeps fixed-size tables and, instead of freeing a table whose
// entries have all been evicted, recycles it: Table.Reset marks it as
// RecycledState and makeTable later hands the same *Table out again as the
// new write head. Reset cleared the hkey map, the counters and the offset, but
// forgot the offsetIndex bitmap that Scan walks, so a recycled table still
// carried the offsets of its previous life and a Scan after reuse returned old
// entries (or decoded new data at stale offsets). The fix re-creates
// offsetIndex in Reset.
// Fixed twin: Reset re-creates offsetIndex.
// Check: noreset (the recycled table is handed out again with offsetIndex
// still holding state of its previous use; report in Reset, which forgets it).
package bug

import (
	"errors"
	"sort"
	"time"
)

type State uint8

const (
	ReadWriteState = State(iota + 1)
	ReadOnlyState
	RecycledState
)

var ErrHKeyNotFound = errors.New("hkey not found")

// offsetSet stands in for the roaring64 bitmap of the project.
type offsetSet struct{ m map[uint64]struct{} }

func newOffsetSet() *offsetSet { return &offsetSet{m: make(map[uint64]struct{})} }

func (s *offsetSet) Add(o uint64)    { s.m[o] = struct{}{} }
func (s *offsetSet) Remove(o uint64) { delete(s.m, o) }
func (s *offsetSet) Sorted() []uint64 {
	out := make([]uint64, 0, len(s.m))
	for o := range s.m {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

type Table struct {
	coefficient uint64
	offset      uint64
	allocated   uint64
	inuse       uint64
	garbage     uint64
	recycledAt  int64
	state       State
	hkeys       map[uint64]uint64
	offsetIndex *offsetSet
	memory      []byte
}

func NewTable(size uint64) *Table {
	return &Table{
		hkeys:       make(map[uint64]uint64),
		allocated:   size,
		offsetIndex: newOffsetSet(),
		state:       ReadWriteState,
		memory:      make([]byte, size),
	}
}

func (t *Table) SetCoefficient(cf uint64) { t.coefficient = cf }
func (t *Table) Coefficient() uint64      { return t.coefficient }
func (t *Table) SetState(s State)         { t.state = s }
func (t *Table) State() State             { return t.state }
func (t *Table) Inuse() uint64            { return t.inuse }

func (t *Table) PutRaw(hkey uint64, value []byte) error {
	n := uint64(len(value))
	if n+t.offset >= t.allocated {
		return errors.New("not enough space")
	}
	t.hkeys[hkey] = t.offset
	t.offsetIndex.Add(t.offset)
	copy(t.memory[t.offset:], value)
	t.inuse += n
	t.offset += n
	return nil
}

func (t *Table) Delete(hkey uint64, size uint64) error {
	offset, ok := t.hkeys[hkey]
	if !ok {
		return ErrHKeyNotFound
	}
	t.offsetIndex.Remove(offset)
	delete(t.hkeys, hkey)
	t.inuse -= size
	t.garbage += size
	return nil
}

// Reset prepares the table for recycling.
func (t *Table) Reset() {
	if len(t.hkeys) != 0 {
		t.hkeys = make(map[uint64]uint64)
	}
	t.SetState(RecycledState)
	t.inuse = 0
	t.garbage = 0
	t.offset = 0
	t.coefficient = 0
	t.offsetIndex = newOffsetSet()
	t.recycledAt = time.Now().UnixNano()
}

// Scan walks the live offsets of the table.
func (t *Table) Scan(f func(offset uint64, b byte) bool) {
	for _, o := range t.offsetIndex.Sorted() {
		if !f(o, t.memory[o]) {
			return
		}
	}
}

type KVStore struct {
	tableSize           uint64
	coefficient         uint64
	tables              []*Table
	tablesByCoefficient map[uint64]*Table
}

func New(size uint64) *KVStore {
	return &KVStore{tableSize: size, tablesByCoefficient: make(map[uint64]*Table)}
}

// makeTable reuses a recycled table when one is available.
func (k *KVStore) makeTable() {
	if len(k.tables) != 0 {
		head := k.tables[len(k.tables)-1]
		head.SetState(ReadOnlyState)
		for i, t := range k.tables {
			if t.State() == RecycledState {
				k.tables = append(k.tables[:i], k.tables[i+1:]...)
				k.tables = append(k.tables, t)
				t.SetCoefficient(k.coefficient)
				k.tablesByCoefficient[k.coefficient] = t
				k.coefficient++
				t.SetState(ReadWriteState)
				return
			}
		}
	}
	nt := NewTable(k.tableSize)
	k.tables = append(k.tables, nt)
	nt.SetCoefficient(k.coefficient)
	k.tablesByCoefficient[k.coefficient] = nt
	k.coefficient++
}

// evictTable moves what it can out of t and recycles t once it is empty.
func (k *KVStore) evictTable(t *Table, hkeys []uint64, sizes []uint64) error {
	for i, hkey := range hkeys {
		if err := t.Delete(hkey, sizes[i]); err != nil && !errors.Is(err, ErrHKeyNotFound) {
			return err
		}
	}
	if t.Inuse() == 0 {
		delete(k.tablesByCoefficient, t.Coefficient())
		t.Reset()
	}
	return nil
}
