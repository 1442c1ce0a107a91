// Package bug reproduces the shape of cubefs/cubefs commit 3b31802
// (https://github.com/cubefs/cubefs/commit/3b3180268c6cd461cecfdaacc1640fc61e292130):
// Streamer.doOverwrite takes a block-sized data buffer from the shared
// proto.Buffers pool for each overwrite packet and hands StreamConn.Send a
// getReply callback that, in a deferred func, puts reqPacket.Data back into
// the pool. But Send calls getReply once per attempt: again for OpAgain
// replies, again for every other replica tried after TryOtherAddrError, and
// again on every outer retry. A retried overwrite therefore returns the same
// buffer to the pool two or more times (and rewrites it to the next replica
// after it was already put back). The fix releases the buffer once, after
// Send returns.
//
// Check: doubleput (reported at the proto.Buffers.Put in the deferred func of
// the getReply callback, which runs on every attempt).
package bug

import (
	"errors"
	"hash/crc32"
	"io"
	"net"
	"sync"
	"time"
)

const (
	BlockSize               = 128 * 1024
	StreamSendMaxRetry      = 3
	StreamSendSleepInterval = 10 * time.Millisecond
)

const (
	OpOk uint8 = iota
	OpAgain
	OpTryOtherAddr
	OpRandomWrite
	OpSyncRandomWrite
)

var TryOtherAddrError = errors.New("TryOtherAddrError")

var IsRdma bool

// ---- util: block buffer pool ----

type BufferPool struct {
	pool sync.Pool
}

func NewBufferPool() *BufferPool {
	return &BufferPool{pool: sync.Pool{New: func() any {
		b := make([]byte, BlockSize)
		return &b
	}}}
}

func (bp *BufferPool) Get(size int) ([]byte, error) {
	if size != BlockSize {
		return nil, errors.New("can only get block size buffer")
	}
	p := bp.pool.Get().(*[]byte)
	return (*p)[:size], nil
}

func (bp *BufferPool) Put(data []byte) {
	if data == nil || cap(data) != BlockSize {
		return
	}
	b := data[:BlockSize]
	bp.pool.Put(&b)
}

// Buffers is the process-wide data buffer pool (proto.Buffers).
var Buffers = NewBufferPool()

// ---- packets ----

type Packet struct {
	Opcode     uint8
	ResultCode uint8
	ExtentID   uint64
	Offset     int
	Size       uint32
	CRC        uint32
	Data       []byte
}

func NewOverwritePacket(extentID uint64, offset int) *Packet {
	p := &Packet{Opcode: OpRandomWrite, ExtentID: extentID, Offset: offset}
	p.Data, _ = Buffers.Get(BlockSize)
	return p
}

func (p *Packet) WriteToConn(c net.Conn) error {
	_, err := c.Write(p.Data[:p.Size])
	return err
}

func (p *Packet) ReadFromConn(c net.Conn, _ time.Duration) error {
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return err
	}
	p.ResultCode = hdr[0]
	return nil
}

func releaseRdmaBuffer(p *Packet) { p.Size = 0 }

// ---- stream connection ----

type GetReplyFunc func(conn net.Conn) (err error, again bool)

type StreamConn struct {
	currAddr string
	hosts    []string
	dial     func(addr string) (net.Conn, error)
}

// Send sends the packet until success or the maximum number of retries is
// reached.
func (sc *StreamConn) Send(retry *bool, req *Packet, getReply GetReplyFunc) (err error) {
	for i := 0; i < StreamSendMaxRetry; i++ {
		err = sc.sendToPartition(req, retry, getReply)
		if err == nil || !*retry {
			return
		}
		time.Sleep(StreamSendSleepInterval)
	}
	return errors.New("StreamConn Send: retried and still failed")
}

func (sc *StreamConn) sendToPartition(req *Packet, retry *bool, getReply GetReplyFunc) (err error) {
	conn, err := sc.dial(sc.currAddr)
	if err == nil {
		err = sc.sendToConn(conn, req, getReply)
		conn.Close()
		if err == nil {
			return
		}
		if err != TryOtherAddrError || !*retry {
			return
		}
	}
	for _, addr := range sc.hosts {
		conn, err = sc.dial(addr)
		if err != nil {
			continue
		}
		sc.currAddr = addr
		err = sc.sendToConn(conn, req, getReply)
		conn.Close()
		if err == nil || err != TryOtherAddrError {
			return
		}
	}
	return errors.New("sendToPartition failed")
}

func (sc *StreamConn) sendToConn(conn net.Conn, req *Packet, getReply GetReplyFunc) (err error) {
	for i := 0; i < StreamSendMaxRetry; i++ {
		if err = req.WriteToConn(conn); err != nil {
			break
		}
		var again bool
		err, again = getReply(conn)
		if !again {
			break
		}
		time.Sleep(StreamSendSleepInterval)
	}
	return
}

// ---- streamer ----

type ExtentRequest struct {
	FileOffset int
	Size       int
	Data       []byte
	ExtentID   uint64
}

type Streamer struct {
	sc    *StreamConn
	retry bool
}

func (s *Streamer) doOverwrite(req *ExtentRequest, direct bool) (total int, err error) {
	offset := req.FileOffset
	size := req.Size
	retry := s.retry

	for total < size {
		reqPacket := NewOverwritePacket(req.ExtentID, offset+total)
		if direct {
			reqPacket.Opcode = OpSyncRandomWrite
		}
		packSize := size - total
		if packSize > BlockSize {
			packSize = BlockSize
		}
		copy(reqPacket.Data[:packSize], req.Data[total:total+packSize])
		reqPacket.Size = uint32(packSize)
		reqPacket.CRC = crc32.ChecksumIEEE(reqPacket.Data[:packSize])

		replyPacket := new(Packet)
		err = s.sc.Send(&retry, reqPacket, func(conn net.Conn) (error, bool) {
			defer func() {
				if IsRdma {
					releaseRdmaBuffer(reqPacket)
				} else {
					Buffers.Put(reqPacket.Data) // want `doubleput`
				}
			}()

			if e := replyPacket.ReadFromConn(conn, time.Second); e != nil {
				// Upon receiving TryOtherAddrError, other hosts will be retried.
				return TryOtherAddrError, false
			}
			if replyPacket.ResultCode == OpAgain {
				return nil, true
			}
			if replyPacket.ResultCode == OpTryOtherAddr {
				return TryOtherAddrError, false
			}
			return nil, false
		})

		reqPacket.Data = nil
		if err != nil || replyPacket.ResultCode != OpOk {
			err = errors.New("doOverwrite: failed or reply NOK")
			break
		}
		total += packSize
	}
	return
}
