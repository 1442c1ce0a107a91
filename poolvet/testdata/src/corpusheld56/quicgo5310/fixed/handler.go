package fixed

import "time"

type sentPacketHistory struct {
	packets    []*packet
	pathProbes []*packet
}

func (h *sentPacketHistory) SentAckElicitingPacket(p *packet) {
	h.packets = append(h.packets, p)
}

func (h *sentPacketHistory) SentPathProbePacket(p *packet) {
	h.pathProbes = append(h.pathProbes, p)
}

type sentPacketHandler struct {
	history       sentPacketHistory
	bytesInFlight ByteCount
}

func (h *sentPacketHandler) SentPacket(
	t time.Time,
	pn, largestAcked PacketNumber,
	streamFrames []StreamFrame,
	frames []Frame,
	encLevel EncryptionLevel,
	size ByteCount,
	isPathMTUProbePacket bool,
	isPathProbePacket bool,
) {
	if isPathProbePacket {
		p := getPacket()
		p.SendTime = t
		p.PacketNumber = pn
		p.EncryptionLevel = encLevel
		p.Length = size
		p.Frames = frames
		p.isPathProbePacket = true
		h.history.SentPathProbePacket(p)
		return
	}
	h.bytesInFlight += size

	p := getPacket()
	p.SendTime = t
	p.PacketNumber = pn
	p.EncryptionLevel = encLevel
	p.Length = size
	p.LargestAcked = largestAcked
	p.StreamFrames = streamFrames
	p.Frames = frames
	p.IsPathMTUProbePacket = isPathMTUProbePacket
	p.includedInBytesInFlight = true

	h.history.SentAckElicitingPacket(p)
}

func (h *sentPacketHandler) removeFromBytesInFlight(p *packet) {
	if p.includedInBytesInFlight {
		h.bytesInFlight -= p.Length
		p.includedInBytesInFlight = false
	}
}

func (h *sentPacketHandler) ReceivedAck(ackedPackets []*packet) bool {
	var acked1RTTPacket bool
	for _, p := range ackedPackets {
		if p.EncryptionLevel == Encryption1RTT {
			acked1RTTPacket = true
		}
		h.removeFromBytesInFlight(p)
		if !p.isPathProbePacket {
			putPacket(p)
		}
	}
	// After this point, we must not use ackedPackets any longer!
	// We've already returned the buffers.
	ackedPackets = nil //nolint:ineffassign // This is just to be on the safe side.
	return acked1RTTPacket
}
