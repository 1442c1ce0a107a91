// Package bug reproduces the shape of aceld/zinx#109
// (https://github.com/aceld/zinx/pull/109, commit 0287c14): DataPack.Pack was
// changed to build each packet in a bytes.Buffer from a sync.Pool, with a
// deferred PutBuffer, and to return dataBuff.Bytes(). A reviewer pointed out
// that the returned slice is the pooled buffer's memory: before the caller
// has written it to the connection, another Pack can take the same buffer and
// overwrite it. The PR was not merged.
//
// Check: useafterput (Bytes() of the pooled buffer returned past a deferred
// Put wrapper; the report is at the return).
package bug

import (
	"bytes"
	"encoding/binary"
	"sync"
)

var bufferPool = sync.Pool{
	New: func() any { return new(bytes.Buffer) },
}

// NewBuffer takes a buffer from the pool.
func NewBuffer() *bytes.Buffer {
	return bufferPool.Get().(*bytes.Buffer)
}

// PutBuffer resets a buffer and gives it back, dropping big ones.
func PutBuffer(buf *bytes.Buffer) {
	const maxSize = 1 << 16
	if buf.Cap() < maxSize {
		buf.Reset()
		bufferPool.Put(buf)
	}
}

type Message struct {
	ID      uint32
	DataLen uint32
	Data    []byte
}

type DataPack struct{}

// Pack writes the header (length, id) and the payload of msg.
func (dp *DataPack) Pack(msg *Message) ([]byte, error) {
	dataBuff := NewBuffer()
	defer PutBuffer(dataBuff)

	if err := binary.Write(dataBuff, binary.LittleEndian, msg.DataLen); err != nil {
		return nil, err
	}
	if err := binary.Write(dataBuff, binary.LittleEndian, msg.ID); err != nil {
		return nil, err
	}
	if err := binary.Write(dataBuff, binary.LittleEndian, msg.Data); err != nil {
		return nil, err
	}

	return dataBuff.Bytes(), nil // want `useafterput`
}
