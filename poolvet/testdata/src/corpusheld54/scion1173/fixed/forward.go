// Source: https://github.com/scionproto/scion/pull/1173
// (commit 1830e4b3b4f65cf2fa2bbc335f066df01d7d0908, "Don't release pkt
// twice in egress logic.").
//
// Bug: in the SIG (go/sig/base/forward.go), EgressWorker.Run takes packet
// buffers that EgressWorker.Read got from the BufferPool and queued on e.c.
// After CopyPkt, the packet is returned with e.bp.Put(pkt). On the next
// iteration, when a partial frame is pending and no new packet is
// available, the default branch sends the partial frame and calls
// e.bp.Put(pkt) again; pkt still holds the previous packet, which was
// already put back at the bottom of the previous iteration. The same
// buffer then sits in the pool twice and two Reads can fill it at once.
//
// Fix: drop the Put in the default branch (the packet was already
// released after CopyPkt).
//
// Check: doubleput (second Put of the previous iteration's pkt in the
// partial-frame branch of Run)
package fixed

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"time"
)

// RawBytes and Order stand in for lib/common.
type RawBytes []byte

var Order = binary.BigEndian

const (
	SIGHdrSize = 8
	PktLenSize = 2
	MinSpace   = 16
)

type BufferPool struct {
	pool *sync.Pool
}

func NewBufferPool() *BufferPool {
	new := func() interface{} {
		return make([]byte, 64*1024)
	}
	bp := &BufferPool{
		pool: &sync.Pool{New: new},
	}
	for i := 0; i < 32; i++ {
		bp.Put(make([]byte, 64*1024))
	}
	return bp
}

func (bp *BufferPool) Get() []byte {
	// Reset slice to entire buffer
	b := bp.pool.Get().([]byte)
	return b[:cap(b)]
}

func (bp *BufferPool) Put(b []byte) {
	bp.pool.Put(b)
}

type asInfo struct {
	Device io.ReadWriteCloser
	conn   net.Conn
}

func (info *asInfo) getConn() (net.Conn, error) {
	if info.conn == nil {
		return nil, errors.New("no conn")
	}
	return info.conn, nil
}

type EgressWorker struct {
	info *asInfo
	src  io.ReadWriteCloser
	c    chan RawBytes
	bp   *BufferPool

	epoch    uint16
	seq      uint32
	index    uint16
	frameOff int
}

const EgressChanSize = 128

func NewEgressWorker(info *asInfo) *EgressWorker {
	return &EgressWorker{
		info: info,
		src:  info.Device,
		c:    make(chan RawBytes, EgressChanSize),
		bp:   NewBufferPool(),
	}
}

func (e *EgressWorker) Run() error {
	// Start reader goroutine
	go e.Read()

	frame := make(RawBytes, 1<<16)
	var pkt RawBytes
	var conn net.Conn
	var err error
	e.frameOff = SIGHdrSize

TopLoop:
	for {
		conn, err = e.info.getConn()
		if err != nil {
			// No connection is available, back off for 500ms and try again
			<-time.After(500 * time.Millisecond)
			continue
		}
		frame = frame[:1280]

		if e.frameOff == SIGHdrSize {
			// Don't have a partial frame, so block indefiniely for the next packet.
			pkt = <-e.c
		} else {
			// Have partial frame
			select {
			case pkt = <-e.c:
				// Another packet was available, process it
			default:
				// No packets available, send existing frame.
				err := e.Write(conn, frame[:e.frameOff])
				if err != nil {
					logError("Error sending frame", err)
				}
				continue TopLoop
			}
		}
		if err := e.CopyPkt(conn, frame, pkt); err != nil {
			logError("Error sending frame", err)
		}
		e.bp.Put(pkt)
	}
}

func (e *EgressWorker) CopyPkt(conn net.Conn, frame, pkt RawBytes) error {
	// New packets always starts at a 8 byte boundary.
	e.frameOff = pad(e.frameOff)
	if e.index == 0 {
		// This is the first start of a packet in this frame, so set the index
		e.index = uint16(e.frameOff / 8)
	}
	// Write packet length to frame
	Order.PutUint16(frame[e.frameOff:], uint16(len(pkt)))
	e.frameOff += PktLenSize
	pktOff := 0
	// Write chunks of the packet to frames, sending off frames as they fill up.
	for {
		copied := copy(frame[e.frameOff:], pkt[pktOff:])
		pktOff += copied
		e.frameOff += copied
		if len(frame)-e.frameOff < MinSpace {
			// There's no point in trying to fit another packet into this frame.
			if err := e.Write(conn, frame[:e.frameOff]); err != nil {
				// Skip the rest of this packet.
				return err
			}
		}
		if pktOff == len(pkt) {
			// This packet is now finished, time to get a new one.
			return nil
		}
		// Otherwise continue copying packet into next frame.
	}
}

func (e *EgressWorker) Read() {
	for {
		pktBuffer := e.bp.Get()
		bytesRead, err := e.src.Read(pktBuffer)
		if err != nil {
			logError("Egress read error", err)
			return
		}
		e.c <- pktBuffer[:bytesRead]
	}
}

func (e *EgressWorker) Write(conn net.Conn, frame RawBytes) error {
	if e.seq == 0 {
		e.epoch = uint16(time.Now().Unix() & 0xFFFF)
	}
	// Write SIG header
	Order.PutUint32(frame[:4], e.seq)
	Order.PutUint16(frame[4:6], e.index)
	Order.PutUint16(frame[6:8], e.epoch)
	// Update metadata
	e.seq += 1
	e.index = 0
	e.frameOff = SIGHdrSize
	// Send frame
	_, err := conn.Write(frame)
	if err != nil {
		return errors.New("Egress write error: " + err.Error())
	}
	return nil
}

func pad(offset int) int {
	return (offset + 7) &^ 7
}

func logError(msg string, err error) {
	_, _ = msg, err
}
