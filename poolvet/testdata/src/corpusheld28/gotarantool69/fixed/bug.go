// Package bug reproduces the shape of viciious/go-tarantool#69
// (https://github.com/viciious/go-tarantool/pull/69, commit
// 84991073c559e2bc2d4576b6cc80c5597a4ccd61), "Cap pool packet size": a
// BinaryPacket read from the connection grows its body slice to fit the
// largest packet it has seen (ReadFrom reallocates with 50% headroom), and
// Release hands the packet back to the connection's BinaryPacketPool with
// no bound, so one huge response pins a huge body in every recycled packet.
// The fix only returns packets whose body capacity is at most
// DefaultMaxPoolPacketSize.
//
// Check: unbounded (a packet whose body grew is put back without a size
// bound, reported at the Put in Release).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
)

const OKCommand = 0

var (
	DefaultReaderBufSize = 128 * 1024

	DefaultMaxPoolPacketSize = 64 * 1024
)

// Packet is a decoded request or response.
type Packet struct {
	Cmd       uint
	SchemaID  uint64
	requestID uint64
	Result    []any
}

// BinaryPacket is a packet with its raw body.
type BinaryPacket struct {
	body   []byte
	header [32]byte
	pool   *BinaryPacketPool
	packet Packet
}

func (pp *BinaryPacket) Reset() {
	pp.packet.Cmd = OKCommand
	pp.packet.SchemaID = 0
	pp.packet.requestID = 0
	pp.packet.Result = nil
	pp.body = pp.body[:0]
}

func (pp *BinaryPacket) Release() {
	if pp.pool != nil && cap(pp.body) <= DefaultMaxPoolPacketSize {
		pp.pool.Put(pp)
	}
}

// ReadFrom implements the io.ReaderFrom interface.
func (pp *BinaryPacket) ReadFrom(r io.Reader) (n int64, err error) {
	h := pp.header[:4]
	rr, err := io.ReadFull(r, h)
	if err != nil {
		return int64(rr), err
	}
	bodyLength := uint(binary.BigEndian.Uint32(h))
	if bodyLength == 0 {
		return int64(rr), errors.New("Packet should not be 0 length")
	}

	if uint(cap(pp.body)) < bodyLength {
		pp.body = make([]byte, bodyLength+bodyLength/2)
	}

	pp.body = pp.body[:bodyLength]
	crr, err := io.ReadFull(r, pp.body)
	return int64(rr) + int64(crr), err
}

// BinaryPacketPool is a free list of packets.
type BinaryPacketPool struct {
	queue chan *BinaryPacket
}

func newBinaryPacketPool() *BinaryPacketPool {
	return &BinaryPacketPool{
		queue: make(chan *BinaryPacket, 4096),
	}
}

func (p *BinaryPacketPool) GetWithID(requestID uint64) (pp *BinaryPacket) {
	select {
	case pp = <-p.queue:
	default:
		pp = &BinaryPacket{}
	}

	pp.Reset()
	pp.pool = p
	pp.packet.requestID = requestID
	return
}

func (p *BinaryPacketPool) Get() *BinaryPacket {
	return p.GetWithID(0)
}

func (p *BinaryPacketPool) Put(pp *BinaryPacket) {
	pp.pool = nil
	select {
	case p.queue <- pp:
	default:
	}
}

// Connection reads responses into pooled packets.
type Connection struct {
	r      io.Reader
	pool   *BinaryPacketPool
	handle func(body []byte)
}

func (conn *Connection) readResponse() error {
	pp := conn.pool.Get()
	defer pp.Release()
	if _, err := pp.ReadFrom(conn.r); err != nil {
		return err
	}
	conn.handle(append([]byte(nil), pp.body...))
	return nil
}
