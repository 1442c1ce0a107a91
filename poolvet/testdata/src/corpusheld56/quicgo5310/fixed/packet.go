// Source: https://github.com/quic-go/quic-go/pull/5310
// (commit 85ac78950b6a26a39f43924e6b454a6f9713cc85,
// "ackhandler: fix resetting of packet.isPathProbePacket")
//
// The ackhandler keeps sent packets in a sync.Pool. getPacket takes a
// *packet from the pool and resets its fields one by one, because the
// pooled object still carries the state of its previous user. When the
// isPathProbePacket field was added, getPacket was not updated: a packet
// that had been used as a path probe could come back out of the pool with
// isPathProbePacket still true, so a regular packet would be treated as a
// path probe (not outstanding, not counted, never returned to the pool).
// Fix: getPacket also clears isPathProbePacket.
//
// Check: noreset (at getPacket, the reset function that forgets the
// isPathProbePacket field of the pooled packet)
package fixed

import (
	"sync"
	"time"
)

type PacketNumber int64

type ByteCount int64

type EncryptionLevel uint8

const Encryption1RTT EncryptionLevel = 4

type StreamFrame struct{ Data []byte }

type Frame struct{ Data []byte }

// A Packet is a packet
type packet struct {
	SendTime        time.Time
	PacketNumber    PacketNumber
	StreamFrames    []StreamFrame
	Frames          []Frame
	LargestAcked    PacketNumber // InvalidPacketNumber if the packet doesn't contain an ACK
	Length          ByteCount
	EncryptionLevel EncryptionLevel

	IsPathMTUProbePacket bool // We don't report the loss of Path MTU probe packets to the congestion controller.

	includedInBytesInFlight bool
	declaredLost            bool
	skippedPacket           bool
	isPathProbePacket       bool
}

func (p *packet) outstanding() bool {
	return !p.declaredLost && !p.skippedPacket && !p.IsPathMTUProbePacket && !p.isPathProbePacket
}

var packetPool = sync.Pool{New: func() any { return &packet{} }}

func getPacket() *packet {
	p := packetPool.Get().(*packet)
	p.PacketNumber = 0
	p.StreamFrames = nil
	p.Frames = nil
	p.LargestAcked = 0
	p.Length = 0
	p.EncryptionLevel = EncryptionLevel(0)
	p.SendTime = time.Time{}
	p.IsPathMTUProbePacket = false
	p.includedInBytesInFlight = false
	p.declaredLost = false
	p.skippedPacket = false
	p.isPathProbePacket = false
	return p
}

// We currently only return Packets back into the pool when they're acknowledged (not when they're lost).
// This simplifies the code, and gives the vast majority of the performance benefit we can gain from using the pool.
func putPacket(p *packet) {
	p.Frames = nil
	p.StreamFrames = nil
	packetPool.Put(p)
}
