// Package fixed is the fix of viciious/go-tarantool#31
// (https://github.com/viciious/go-tarantool/pull/31): a configured maximum
// packet size; larger packets are not put back.
package fixed

import (
	"io"
	"sync"
)

type BinaryPacket struct {
	code uint32
	body []byte
}

func (pp *BinaryPacket) Reset() {
	pp.code = 0
	pp.body = pp.body[:0]
}

func (pp *BinaryPacket) appendBody(p []byte) {
	pp.body = append(pp.body, p...)
}

func (pp *BinaryPacket) ReadFrom(r io.Reader) (int64, error) {
	var chunk [4096]byte
	var n int64
	for {
		k, err := r.Read(chunk[:])
		pp.appendBody(chunk[:k])
		n += int64(k)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

var packetPool = sync.Pool{New: func() any { return &BinaryPacket{} }}

type Connection struct {
	poolMaxPacketSize int
}

func (conn *Connection) acquirePacket() *BinaryPacket {
	return packetPool.Get().(*BinaryPacket)
}

func (conn *Connection) releasePacket(pp *BinaryPacket) {
	if cap(pp.body) > conn.poolMaxPacketSize {
		return
	}
	pp.Reset()
	packetPool.Put(pp)
}

func (conn *Connection) Receive(r io.Reader, handle func([]byte)) error {
	pp := conn.acquirePacket()
	defer conn.releasePacket(pp)
	if _, err := pp.ReadFrom(r); err != nil {
		return err
	}
	handle(pp.body)
	return nil
}
