// Package bug reproduces the shape of datarhei/gosrt#36 (https://github.com/datarhei/gosrt/pull/36):
// "Fix race condition when disposing late packets". The live sender's Tick hands
// ripe packets to the connection through deliver, which is listener.send: a
// non-blocking push onto sndQueue, drained later by a separate writer goroutine
// that marshals the packet's payload. Shortly after, Tick (and ACK handling)
// decommissions packets that are too old, which puts their payload *bytes.Buffer
// back into the package payload pool while the packet may still be waiting in
// sndQueue; the writer then marshals a buffer that is back in the pool (or nil).
// The fix (commit c7561ad51ba5188c8bff7d934004647ea3fe51cc) makes send synchronous so
// that Decommission can only run after the packet is on the wire.
// Check: useafterput; fixed twin: the project's fix, send marshals and writes the
// packet synchronously under a mutex, so the packet is no longer referenced when
// Tick decommissions it.
package bug

import (
	"bytes"
	"container/list"
	"errors"
	"io"
	"sync"
)

// maxPooledPayload keeps oversized payload buffers out of the pool.
const maxPooledPayload = 1 << 16

type PacketHeader struct {
	IsControlPacket bool
	SequenceNumber  uint32
	PktTsbpdTime    uint64
}

type Packet interface {
	Header() *PacketHeader
	Len() uint64
	SetData(data []byte)
	Marshal(w io.Writer) error
	Decommission()
}

type pkt struct {
	header  PacketHeader
	payload *bytes.Buffer
}

type pool struct {
	pool sync.Pool
}

func newPool() *pool {
	return &pool{pool: sync.Pool{New: func() interface{} { return new(bytes.Buffer) }}}
}

func (p *pool) Get() *bytes.Buffer {
	b := p.pool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

func (p *pool) Put(b *bytes.Buffer) {
	p.pool.Put(b)
}

var payloadPool = newPool()

func NewPacket() Packet {
	return &pkt{payload: payloadPool.Get()}
}

func (p *pkt) Header() *PacketHeader { return &p.header }

func (p *pkt) Len() uint64 { return uint64(p.payload.Len()) }

func (p *pkt) SetData(data []byte) {
	p.payload.Reset()
	p.payload.Write(data)
}

func (p *pkt) Marshal(w io.Writer) error {
	if p.payload == nil {
		return errors.New("invalid payload")
	}
	var hdr [4]byte
	hdr[0] = byte(p.header.SequenceNumber >> 24)
	hdr[1] = byte(p.header.SequenceNumber >> 16)
	hdr[2] = byte(p.header.SequenceNumber >> 8)
	hdr[3] = byte(p.header.SequenceNumber)
	w.Write(hdr[:])
	w.Write(p.payload.Bytes())
	return nil
}

// Decommission hands the payload buffer back to the pool.
func (p *pkt) Decommission() {
	if p.payload == nil {
		return
	}
	if p.payload.Cap() <= maxPooledPayload {
		payloadPool.Put(p.payload)
	}
	p.payload = nil
}

// liveSend is the sender side of the live congestion control.
type liveSend struct {
	lock          sync.Mutex
	packetList    *list.List
	lossList      *list.List
	dropThreshold uint64
	deliver       func(p Packet)
	pktDrop       uint64
}

func newLiveSend(deliver func(p Packet), dropThreshold uint64) *liveSend {
	return &liveSend{
		packetList:    list.New(),
		lossList:      list.New(),
		dropThreshold: dropThreshold,
		deliver:       deliver,
	}
}

func (s *liveSend) Push(p Packet) {
	s.lock.Lock()
	defer s.lock.Unlock()
	s.packetList.PushBack(p)
}

func (s *liveSend) Tick(now uint64) {
	// Hand ripe packets to the connection and keep them for retransmission.
	s.lock.Lock()
	removeList := make([]*list.Element, 0, s.packetList.Len())
	for e := s.packetList.Front(); e != nil; e = e.Next() {
		p := e.Value.(Packet)
		if p.Header().PktTsbpdTime > now {
			break
		}
		s.deliver(p)
		removeList = append(removeList, e)
	}
	for _, e := range removeList {
		s.lossList.PushBack(e.Value)
		s.packetList.Remove(e)
	}
	s.lock.Unlock()

	// Drop packets that are too old to be retransmitted.
	s.lock.Lock()
	removeList = make([]*list.Element, 0, s.lossList.Len())
	for e := s.lossList.Front(); e != nil; e = e.Next() {
		p := e.Value.(Packet)
		if p.Header().PktTsbpdTime+s.dropThreshold <= now {
			removeList = append(removeList, e)
		}
	}
	for _, e := range removeList {
		p := e.Value.(Packet)
		s.lossList.Remove(e)
		s.pktDrop++
		// This packet is not needed anymore (too late).
		p.Decommission()
	}
	s.lock.Unlock()
}

type listener struct {
	pc       io.Writer
	sndMutex sync.Mutex
	sndData  bytes.Buffer
}

func newListener(pc io.Writer) *listener {
	return &listener{pc: pc}
}

// send writes a packet to the wire. It must be synchronous so that the packet
// can safely be decommissioned afterwards.
func (ln *listener) send(p Packet) {
	ln.sndMutex.Lock()
	defer ln.sndMutex.Unlock()

	ln.sndData.Reset()

	if err := p.Marshal(&ln.sndData); err != nil {
		p.Decommission()
		return
	}

	ln.pc.Write(ln.sndData.Bytes())

	if p.Header().IsControlPacket {
		// Control packets will not be sent again.
		p.Decommission()
	}
}

func run(pc io.Writer, payloads [][]byte, now uint64) {
	ln := newListener(pc)

	snd := newLiveSend(ln.send, 0)
	for i, b := range payloads {
		p := NewPacket()
		p.SetData(b)
		p.Header().SequenceNumber = uint32(i)
		p.Header().PktTsbpdTime = now
		snd.Push(p)
	}
	snd.Tick(now)
}
