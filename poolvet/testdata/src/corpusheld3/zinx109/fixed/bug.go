// Package fixed is zinx#109 with the obvious fix: Pack returns a copy of the
// packet, so the pooled buffer can go back safely.
package fixed

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

	return bytes.Clone(dataBuff.Bytes()), nil
}
