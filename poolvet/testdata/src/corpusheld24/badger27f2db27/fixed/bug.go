// Package bug reproduces the shape of dgraph-io/badger commit 27f2db27
// (https://github.com/dgraph-io/badger/commit/27f2db27c15c11ad100c898792e49e3ef4f3f241,
// "Don't use a sync.Pool for table builder buffers. They consume too much
// memory and cause OOM."): every TableBuilder takes two bytes.Buffers from a
// package sync.Pool (pre-grown to 64 MB), writes a whole SSTable (all keys,
// values, block index and bloom filter) into them, and Close resets and puts
// them back. Reset keeps the capacity, and there is no bound on how big a
// table (or one large value) can make them, so each buffer that ever held a
// big table stays in the pool at that size; with several concurrent
// compactions this pinned memory until the process ran out of it. The project
// stopped pooling these buffers.
//
// Fixed twin: the builder allocates its own buffers and Close no longer
// pools them, as the project did.
//
// Check: unbounded (reported at both Puts in Close: each grown buffer goes
// back with no size check).
package bug

import (
	"bytes"
	"encoding/binary"
	"io"
)

var restartInterval = 100

func newBuffer(sz int) *bytes.Buffer {
	b := new(bytes.Buffer)
	b.Grow(sz)
	return b
}

type header struct {
	plen uint16
	klen uint16
	vlen uint16
	prev uint32
}

func (h header) Encode(b []byte) {
	binary.BigEndian.PutUint16(b[0:2], h.plen)
	binary.BigEndian.PutUint16(b[2:4], h.klen)
	binary.BigEndian.PutUint16(b[4:6], h.vlen)
	binary.BigEndian.PutUint32(b[6:10], h.prev)
}

// TableBuilder builds one SSTable in memory.
type TableBuilder struct {
	counter    int
	keyBuf     *bytes.Buffer
	buf        *bytes.Buffer
	baseKey    []byte
	baseOffset uint32
	restarts   []uint32
	prevOffset uint32
	keyCount   int
}

func NewTableBuilder() *TableBuilder {
	return &TableBuilder{
		keyBuf:     newBuffer(32 << 20),
		buf:        newBuffer(64 << 20),
		prevOffset: ^uint32(0),
	}
}

// Close closes the TableBuilder.
func (b *TableBuilder) Close() {}

func (b *TableBuilder) keyDiff(newKey []byte) []byte {
	var i int
	for i = 0; i < len(newKey) && i < len(b.baseKey); i++ {
		if newKey[i] != b.baseKey[i] {
			break
		}
	}
	return newKey[i:]
}

// Add appends one key/value entry to the table.
func (b *TableBuilder) Add(key, value []byte) {
	if b.counter >= restartInterval {
		b.restarts = append(b.restarts, uint32(b.buf.Len()))
		b.counter = 0
		b.baseKey = []byte{}
		b.baseOffset = uint32(b.buf.Len())
		b.prevOffset = ^uint32(0)
	}

	var klen [2]byte
	binary.BigEndian.PutUint16(klen[:], uint16(len(key)))
	b.keyBuf.Write(klen[:])
	b.keyBuf.Write(key)
	b.keyCount++

	var diffKey []byte
	if len(b.baseKey) == 0 {
		b.baseKey = append(b.baseKey[:0], key...)
		diffKey = key
	} else {
		diffKey = b.keyDiff(key)
	}
	h := header{
		plen: uint16(len(key) - len(diffKey)),
		klen: uint16(len(diffKey)),
		vlen: uint16(len(value)),
		prev: b.prevOffset,
	}
	b.prevOffset = uint32(b.buf.Len()) - b.baseOffset

	var hbuf [10]byte
	h.Encode(hbuf[:])
	b.buf.Write(hbuf[:])
	b.buf.Write(diffKey)
	b.buf.Write(value)
	b.counter++
}

// Finish appends the block index and returns the table bytes, which stay
// valid until Close.
func (b *TableBuilder) Finish() []byte {
	b.restarts = append(b.restarts, uint32(b.buf.Len()))
	var tmp [4]byte
	for _, r := range b.restarts {
		binary.BigEndian.PutUint32(tmp[:], r)
		b.buf.Write(tmp[:])
	}
	binary.BigEndian.PutUint32(tmp[:], uint32(len(b.restarts)))
	b.buf.Write(tmp[:])
	return b.buf.Bytes()
}

// writeLevel0Table flushes a memtable to w.
func writeLevel0Table(keys, values [][]byte, w io.Writer) error {
	b := NewTableBuilder()
	defer b.Close()
	for i := range keys {
		b.Add(keys[i], values[i])
	}
	_, err := w.Write(b.Finish())
	return err
}
