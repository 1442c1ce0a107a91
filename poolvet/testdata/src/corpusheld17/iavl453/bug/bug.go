// Package bug reproduces the shape of cosmos/iavl#453
// (https://github.com/cosmos/iavl/pull/453): the first version of this
// change took the encoding buffers from a sync.Pool and gave them back with
// a deferred Put, but kept handing out buf.Bytes(): encodeBytesSlice
// returned it to its callers, and Importer.Add stored it in the import
// batch, which only writes its entries out later. Tests broke until the
// final commit of the PR copied the bytes in both places.
//
// Check: useafterput (an alias returned past a deferred Put, and an alias
// stored in the receiver's batch before a deferred Put; reports expected at
// the `return buf.Bytes(), err` and at the `i.batch.Set(...)` lines).
package bug

import (
	"bytes"
	"encoding/binary"
	"sync"
)

const (
	maxPooledBuf = 1 << 16
	maxBatchSize = 10000
)

var bufPool = &sync.Pool{New: func() any { return new(bytes.Buffer) }}

func encodeBytes(buf *bytes.Buffer, bz []byte) {
	var n [binary.MaxVarintLen64]byte
	buf.Write(n[:binary.PutUvarint(n[:], uint64(len(bz)))])
	buf.Write(bz)
}

// encodeBytesSlice length-prefixes the byte slice and returns it.
func encodeBytesSlice(bz []byte) ([]byte, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuf {
			bufPool.Put(buf)
		}
	}()

	encodeBytes(buf, bz)
	return buf.Bytes(), nil // want `useafterput`
}

type batch struct {
	keys   [][]byte
	values [][]byte // Set keeps the slices it is given until Write
	db     map[string][]byte
}

func (b *batch) Set(key, value []byte) error {
	b.keys = append(b.keys, key)
	b.values = append(b.values, value)
	return nil
}

func (b *batch) Write() error {
	for i, k := range b.keys {
		b.db[string(k)] = append([]byte(nil), b.values[i]...)
	}
	b.keys, b.values = nil, nil
	return nil
}

type Node struct {
	key     []byte
	value   []byte
	height  int8
	version int64
	hash    []byte
}

func (n *Node) writeBytes(buf *bytes.Buffer) error {
	buf.WriteByte(byte(n.height))
	var v [binary.MaxVarintLen64]byte
	buf.Write(v[:binary.PutVarint(v[:], n.version)])
	encodeBytes(buf, n.key)
	encodeBytes(buf, n.value)
	return nil
}

type Importer struct {
	batch     *batch
	batchSize int
}

func nodeKey(hash []byte) []byte { return append([]byte{'n'}, hash...) }

// Add imports a node into the batch.
func (i *Importer) Add(node *Node) error {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuf {
			bufPool.Put(buf)
		}
	}()

	if err := node.writeBytes(buf); err != nil {
		return err
	}

	if err := i.batch.Set(nodeKey(node.hash), buf.Bytes()); err != nil { // want `useafterput`
		return err
	}

	i.batchSize++
	if i.batchSize >= maxBatchSize {
		if err := i.batch.Write(); err != nil {
			return err
		}
		i.batchSize = 0
	}
	return nil
}

// Commit writes what is left in the batch.
func (i *Importer) Commit() error {
	return i.batch.Write()
}
