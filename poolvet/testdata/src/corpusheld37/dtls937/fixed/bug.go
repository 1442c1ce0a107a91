// Package bug reproduces the shape of pion/dtls#937 (https://github.com/pion/dtls/pull/937),
// "Fix queued 1.3 packets read race". readAndBuffer reads a datagram into a
// buffer from poolReadBuffer and defers its Put. The datagram is split into
// records that are sub-slices of that buffer; a record for an epoch the
// connection cannot decrypt yet is queued in c.encryptedPackets (through
// handleIncomingPacket -> enqueueEncryptedPackets) and processed later by
// handleQueuedPackets, which with DTLS 1.3 runs from the handshake FSM while the
// reader already recycled the buffer. The fix hands ownership of the read
// buffer to the queue: once a record is queued the buffer is no longer returned
// to the pool (commit d74bf0b7b8fa041d18793746320028ec5d432866).
// Check: useafterput; fixed twin: the project's fix, a packetQueueWriter owns the read
// buffer and gives up returning it to the pool once a record was queued.
package bug

import (
	"context"
	"errors"
	"net"
	"sync"
)

const (
	inboundBufferSize         = 8192
	recordHeaderSize          = 13
	maxAppDataPacketQueueSize = 100
)

var (
	errFailedToAccessPoolReadBuffer = errors.New("failed to access pool read buffer")
	errInvalidPacketLength          = errors.New("packet length and declared length do not match")
)

var poolReadBuffer = sync.Pool{
	New: func() interface{} {
		b := make([]byte, inboundBufferSize)
		return &b
	},
}

type addrPkt struct {
	rAddr net.Addr
	data  []byte
}

// unpackDatagram splits a datagram into records; each record is a sub-slice of buf.
func unpackDatagram(buf []byte) ([][]byte, error) {
	out := [][]byte{}
	for offset := 0; len(buf) != offset; {
		if len(buf)-offset <= recordHeaderSize {
			return nil, errInvalidPacketLength
		}
		pktLen := recordHeaderSize + (int(buf[offset+11])<<8 | int(buf[offset+12]))
		if offset+pktLen > len(buf) {
			return nil, errInvalidPacketLength
		}
		out = append(out, buf[offset:offset+pktLen])
		offset += pktLen
	}
	return out, nil
}

type Conn struct {
	lock             sync.Mutex
	nextConn         net.PacketConn
	remoteEpoch      uint16
	encryptedPackets []addrPkt
	received         [][]byte
}

func recordEpoch(buf []byte) uint16 {
	return uint16(buf[3])<<8 | uint16(buf[4])
}

// packetQueueWriter owns the pooled read buffer until a queued record takes
// over keeping its backing array alive.
type packetQueueWriter struct {
	conn                 *Conn
	recyclableReadBuffer *[]byte
}

func (w *packetQueueWriter) enqueue(packet addrPkt) bool {
	if !w.conn.enqueueEncryptedPackets(packet) {
		return false
	}
	w.recyclableReadBuffer = nil
	return true
}

func (w *packetQueueWriter) releaseReadBuffer() {
	readBuffer := w.recyclableReadBuffer
	w.recyclableReadBuffer = nil
	if readBuffer != nil {
		poolReadBuffer.Put(readBuffer)
	}
}

func (c *Conn) readAndBuffer(ctx context.Context) error {
	bufptr, ok := poolReadBuffer.Get().(*[]byte)
	if !ok {
		return errFailedToAccessPoolReadBuffer
	}
	queueWriter := packetQueueWriter{conn: c, recyclableReadBuffer: bufptr}
	defer queueWriter.releaseReadBuffer()

	b := *bufptr
	i, rAddr, err := c.nextConn.ReadFrom(b)
	if err != nil {
		return err
	}

	pkts, err := unpackDatagram(b[:i])
	if err != nil {
		return err
	}

	for _, p := range pkts {
		if err := c.handleIncomingPacket(ctx, p, rAddr, &queueWriter); err != nil {
			return err
		}
	}
	queueWriter.releaseReadBuffer()
	return nil
}

func (c *Conn) handleQueuedPackets(ctx context.Context) error {
	c.lock.Lock()
	pkts := c.encryptedPackets
	c.encryptedPackets = nil
	c.lock.Unlock()

	for _, p := range pkts {
		if err := c.handleIncomingPacket(ctx, p.data, p.rAddr, nil); err != nil { // don't re-enqueue
			return err
		}
	}
	return nil
}

func (c *Conn) enqueueEncryptedPackets(packet addrPkt) bool {
	c.lock.Lock()
	defer c.lock.Unlock()

	if len(c.encryptedPackets) >= maxAppDataPacketQueueSize {
		return false
	}
	// Keep an append by a queue consumer from overwriting an adjacent record.
	packet.data = packet.data[:len(packet.data):len(packet.data)]
	c.encryptedPackets = append(c.encryptedPackets, packet)
	return true
}

func (c *Conn) handleIncomingPacket(ctx context.Context, buf []byte, rAddr net.Addr, queueWriter *packetQueueWriter) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.lock.Lock()
	remote := c.remoteEpoch
	c.lock.Unlock()

	if recordEpoch(buf) > remote {
		if queueWriter != nil {
			queueWriter.enqueue(addrPkt{rAddr, buf})
		}
		return nil
	}

	payload := make([]byte, len(buf)-recordHeaderSize)
	copy(payload, buf[recordHeaderSize:])
	c.lock.Lock()
	c.received = append(c.received, payload)
	c.lock.Unlock()
	return nil
}

// setRemoteEpoch is called by the handshake FSM once keys for the next epoch exist.
func (c *Conn) setRemoteEpoch(ctx context.Context, epoch uint16) error {
	c.lock.Lock()
	c.remoteEpoch = epoch
	c.lock.Unlock()
	return c.handleQueuedPackets(ctx)
}
