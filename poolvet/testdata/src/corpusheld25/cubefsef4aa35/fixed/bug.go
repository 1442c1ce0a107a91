// Package bug reproduces the shape of cubefs/cubefs commit ef4aa35e3dcb
// (https://github.com/cubefs/cubefs/commit/ef4aa35e3dcb466bb825427b4700229fdceda25d,
// "fix: duplicate put of data memory pool"): when a write reply is bad,
// ExtentHandler.processReplyError hands the packet to recoverPacket so that a
// recovery handler can resend it. Once a packet has failed too often,
// recoverPacket gives the packet's data block back to the shared buffer pool
// itself and reports an error; processReplyError reads that error as "discard
// the packet" and gives the very same block back a second time, so two later
// writers can be handed one block. The fix drops the Put in processReplyError.
//
// Fixed twin: processReplyError no longer puts packet.Data; recoverPacket is
// the only owner that gives it back on the discard path.
// Check: doubleput (none expected here).
package bug

import (
	"errors"
	"fmt"
	"log"
	"sync"
	"sync/atomic"
)

const (
	PacketHeaderSize    = 57
	BlockSize           = 128 * 1024
	MaxPacketErrorCount = 32
)

const (
	ExtentStatusOpen int32 = iota
	ExtentStatusClosed
	ExtentStatusRecovery
	ExtentStatusError
)

// BufferPool keeps one sync.Pool per block size class.
type BufferPool struct {
	pools [2]*sync.Pool
}

func NewBufferPool() *BufferPool {
	bp := &BufferPool{}
	bp.pools[0] = &sync.Pool{New: func() interface{} {
		b := make([]byte, PacketHeaderSize)
		return &b
	}}
	bp.pools[1] = &sync.Pool{New: func() interface{} {
		b := make([]byte, BlockSize)
		return &b
	}}
	return bp
}

func (bp *BufferPool) Get(size int) (*[]byte, error) {
	switch size {
	case PacketHeaderSize:
		return bp.pools[0].Get().(*[]byte), nil
	case BlockSize:
		return bp.pools[1].Get().(*[]byte), nil
	}
	return nil, fmt.Errorf("unsupported buffer size %d", size)
}

func (bp *BufferPool) Put(data *[]byte) {
	if data == nil {
		return
	}
	switch len(*data) {
	case PacketHeaderSize:
		bp.pools[0].Put(data)
	case BlockSize:
		bp.pools[1].Put(data)
	}
}

var Buffers = NewBufferPool()

type Packet struct {
	ReqID        int64
	CRC          uint32
	Data         *[]byte
	errCount     int
	kernelOffset int
}

type Reply struct {
	ReqID      int64
	ResultCode uint8
	CRC        uint32
}

type StreamWriter struct {
	dirtylist []*ExtentHandler
}

type ExtentHandler struct {
	sw             *StreamWriter
	status         int32
	inflight       int32
	fileOffset     int
	dirty          bool
	recoverHandler *ExtentHandler
	request        chan *Packet
	readReply      func(p *Packet) (*Reply, error)
}

func NewExtentHandler(sw *StreamWriter, offset int) *ExtentHandler {
	return &ExtentHandler{sw: sw, fileOffset: offset, request: make(chan *Packet, 1024)}
}

func (eh *ExtentHandler) getStatus() int32 { return atomic.LoadInt32(&eh.status) }
func (eh *ExtentHandler) setClosed() {
	atomic.CompareAndSwapInt32(&eh.status, ExtentStatusOpen, ExtentStatusClosed)
}
func (eh *ExtentHandler) setRecovery() {
	atomic.CompareAndSwapInt32(&eh.status, ExtentStatusClosed, ExtentStatusRecovery)
}
func (eh *ExtentHandler) setError() { atomic.StoreInt32(&eh.status, ExtentStatusError) }

func (eh *ExtentHandler) pushToRequest(p *Packet) {
	atomic.AddInt32(&eh.inflight, 1)
	eh.request <- p
}

func (eh *ExtentHandler) processReply(packet *Packet) {
	defer atomic.AddInt32(&eh.inflight, -1)

	status := eh.getStatus()
	if status >= ExtentStatusError {
		Buffers.Put(packet.Data)
		log.Printf("processReply discard packet: eh(%p) packet(%v)", eh, packet.ReqID)
		return
	} else if status >= ExtentStatusRecovery {
		if err := eh.recoverPacket(packet); err != nil {
			eh.setError()
			log.Printf("processReply discard packet in recovery: %v", err)
		}
		return
	}

	reply, err := eh.readReply(packet)
	if err != nil {
		eh.processReplyError(packet, err.Error())
		return
	}
	if reply.ReqID != packet.ReqID {
		eh.processReplyError(packet, fmt.Sprintf("request and reply not match: reply(%v)", reply.ReqID))
		return
	}
	if reply.CRC != packet.CRC {
		eh.processReplyError(packet, "inconsistent CRC")
		return
	}

	Buffers.Put(packet.Data)
	eh.dirty = true
}

func (eh *ExtentHandler) processReplyError(packet *Packet, errmsg string) {
	eh.setClosed()
	eh.setRecovery()
	if err := eh.recoverPacket(packet); err != nil {
		// discard packet
		// recoverPacket already gave packet.Data back to the pool.
		eh.setError()
		log.Printf("processReplyError discard packet: eh(%p) packet(%v) err(%v) errmsg(%v)", eh, packet.ReqID, err, errmsg)
	} else {
		log.Printf("processReplyError recover packet: eh(%p) packet(%v) errmsg(%v)", eh, packet.ReqID, errmsg)
	}
}

func (eh *ExtentHandler) recoverPacket(packet *Packet) error {
	packet.errCount++
	if packet.errCount >= MaxPacketErrorCount {
		Buffers.Put(packet.Data)
		return errors.New("recoverPacket failed: reach max error limit")
	}

	handler := eh.recoverHandler
	if handler == nil {
		handler = NewExtentHandler(eh.sw, packet.kernelOffset)
		handler.setClosed()
	}
	handler.pushToRequest(packet)
	if eh.recoverHandler == nil {
		eh.recoverHandler = handler
		eh.sw.dirtylist = append(eh.sw.dirtylist, handler)
	}
	return nil
}
