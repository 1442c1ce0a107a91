// Package bug reproduces the shape of pion/interceptor#84 (https://github.com/pion/interceptor/issues/84),
// "NACK responder always responding with most recent packet". An SFU DownTrack
// (LiveKit's WriteRTP at the time) rewrites a VP8 payload into a buffer taken
// from the PacketFactory sync.Pool and returns that buffer to the pool in a
// deferred func once writeStream.WriteRTP returns. The NACK responder
// interceptor on that write path keeps &rtp.Packet{Header: *header, Payload:
// payload} in its send buffer, so the payload it caches is memory that has
// already gone back to the pool; the next packet overwrites it and a later NACK
// retransmits the wrong bytes under the old sequence number. Fixed in
// pion/interceptor#92 (commit ec82d5387a9c4adb724f06440ae5bb2a6589fabe): the
// responder copies header and payload into its own retainable packet.
// Check: useafterput; fixed twin: the project's fix, the responder keeps its own
// copy (from its own pools, released when evicted or after a resend) instead of
// the caller's payload.
package bug

import (
	"errors"
	"sync"
)

type Header struct {
	SequenceNumber uint16
	Timestamp      uint32
	SSRC           uint32
	PayloadType    uint8
}

type Packet struct {
	Header  Header
	Payload []byte
}

type RTPWriter interface {
	Write(header *Header, payload []byte) (int, error)
}

type RTPWriterFunc func(header *Header, payload []byte) (int, error)

func (f RTPWriterFunc) Write(header *Header, payload []byte) (int, error) {
	return f(header, payload)
}

const maxPayloadLen = 1460

var errPacketReleased = errors.New("could not retain packet, already released")

type packetManager struct {
	headerPool  *sync.Pool
	payloadPool *sync.Pool
}

func newPacketManager() *packetManager {
	return &packetManager{
		headerPool: &sync.Pool{New: func() interface{} { return &Header{} }},
		payloadPool: &sync.Pool{New: func() interface{} {
			buf := make([]byte, maxPayloadLen)
			return &buf
		}},
	}
}

func (m *packetManager) NewPacket(header *Header, payload []byte) (*retainablePacket, error) {
	if len(payload) > maxPayloadLen {
		return nil, errShortBuffer
	}
	p := &retainablePacket{onRelease: m.releasePacket, count: 1}
	p.header = m.headerPool.Get().(*Header)
	*p.header = *header
	if payload != nil {
		p.buffer = m.payloadPool.Get().(*[]byte)
		size := copy(*p.buffer, payload)
		p.payload = (*p.buffer)[:size]
	}
	return p, nil
}

func (m *packetManager) releasePacket(header *Header, payload *[]byte) {
	*header = Header{}
	m.headerPool.Put(header)
	if payload != nil {
		m.payloadPool.Put(payload)
	}
}

type retainablePacket struct {
	onRelease func(*Header, *[]byte)

	countMu sync.Mutex
	count   int

	header  *Header
	buffer  *[]byte
	payload []byte
}

func (p *retainablePacket) Header() *Header { return p.header }

func (p *retainablePacket) Payload() []byte { return p.payload }

func (p *retainablePacket) Retain() error {
	p.countMu.Lock()
	defer p.countMu.Unlock()
	if p.count == 0 {
		return errPacketReleased
	}
	p.count++
	return nil
}

func (p *retainablePacket) Release() {
	p.countMu.Lock()
	defer p.countMu.Unlock()
	p.count--
	if p.count == 0 {
		p.onRelease(p.header, p.buffer)
		p.header, p.buffer, p.payload = nil, nil, nil
	}
}

type sendBuffer struct {
	mu      sync.Mutex
	packets []*retainablePacket
	size    uint16
}

func newSendBuffer(size uint16) *sendBuffer {
	return &sendBuffer{packets: make([]*retainablePacket, size), size: size}
}

func (s *sendBuffer) add(p *retainablePacket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	idx := p.Header().SequenceNumber % s.size
	if old := s.packets[idx]; old != nil {
		old.Release()
	}
	s.packets[idx] = p
}

// get returns a retained packet; the caller releases it.
func (s *sendBuffer) get(seq uint16) *retainablePacket {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.packets[seq%s.size]
	if p == nil || p.Header() == nil || p.Header().SequenceNumber != seq {
		return nil
	}
	if err := p.Retain(); err != nil {
		return nil
	}
	return p
}

// ResponderInterceptor responds to NACK feedback by resending cached packets.
type ResponderInterceptor struct {
	size      uint16
	packetMan *packetManager
	streams   map[uint32]*localStream
	streamsMu sync.Mutex
}

func NewResponderInterceptor() *ResponderInterceptor {
	return &ResponderInterceptor{size: 1024, packetMan: newPacketManager(), streams: map[uint32]*localStream{}}
}

// BindLocalStream wraps the outgoing writer of a stream.
func (n *ResponderInterceptor) BindLocalStream(ssrc uint32, writer RTPWriter) RTPWriter {
	sb := newSendBuffer(n.size)
	n.streamsMu.Lock()
	n.streams[ssrc] = &localStream{sendBuffer: sb, rtpWriter: writer}
	n.streamsMu.Unlock()

	return RTPWriterFunc(func(header *Header, payload []byte) (int, error) {
		pkt, err := n.packetMan.NewPacket(header, payload)
		if err != nil {
			return 0, err
		}
		sb.add(pkt)
		return writer.Write(header, payload)
	})
}

type localStream struct {
	sendBuffer *sendBuffer
	rtpWriter  RTPWriter
}

// resendPackets answers a NACK with the cached packets.
func (n *ResponderInterceptor) resendPackets(ssrc uint32, seqs []uint16) {
	n.streamsMu.Lock()
	stream, ok := n.streams[ssrc]
	n.streamsMu.Unlock()
	if !ok {
		return
	}
	for _, seq := range seqs {
		if p := stream.sendBuffer.get(seq); p != nil {
			stream.rtpWriter.Write(p.Header(), p.Payload())
			p.Release()
		}
	}
}

// ---- sender side (the SFU's DownTrack) ----

var PacketFactory = &sync.Pool{
	New: func() interface{} {
		b := make([]byte, 1460)
		return &b
	},
}

var errShortBuffer = errors.New("short buffer")

// translateVP8PacketTo writes the payload with a rewritten VP8 descriptor into outbuf.
func translateVP8PacketTo(in []byte, picID uint16, outbuf *[]byte) ([]byte, error) {
	if len(in) < 3 || len(in)+1 > len(*outbuf) {
		return nil, errShortBuffer
	}
	out := (*outbuf)[:len(in)+1]
	out[0] = in[0] | 0x80
	out[1] = 0x80 | byte(picID>>8)
	out[2] = byte(picID)
	copy(out[3:], in[2:])
	return out, nil
}

type DownTrack struct {
	ssrc        uint32
	payloadType uint8
	writeStream RTPWriter
	snOffset    uint16
	picID       uint16
}

// WriteRTP writes a forwarded packet to the DownTrack.
func (d *DownTrack) WriteRTP(pkt *Packet, rewriteVP8 bool) error {
	var pool *[]byte
	defer func() {
		if pool != nil {
			PacketFactory.Put(pool)
			pool = nil
		}
	}()

	payload := pkt.Payload
	if rewriteVP8 {
		d.picID++
		pool = PacketFactory.Get().(*[]byte)
		var err error
		payload, err = translateVP8PacketTo(pkt.Payload, d.picID, pool)
		if err != nil {
			return err
		}
	}

	hdr := pkt.Header
	hdr.SequenceNumber -= d.snOffset
	hdr.SSRC = d.ssrc
	hdr.PayloadType = d.payloadType

	_, err := d.writeStream.Write(&hdr, payload)
	return err
}
