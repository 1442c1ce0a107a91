// Package bug reproduces the shape of dgrr/http2 commit 9a0fac18
// (https://github.com/dgrr/http2/commit/9a0fac18ac01d44ec8cc907e0b6c4af25eae84d6,
// "Fix data races found by a 1000-client stress test"): when a PING without
// the ACK flag arrives, the read loop hands the *Ping body of the incoming
// frame header to handlePing, which flips the ACK bit and attaches that same
// Ping to a fresh outgoing frame header queued for the write loop. The read
// loop then releases the incoming header (and with it the Ping) to the pools,
// and the write loop releases the outgoing header (and the same Ping) again
// after writing it. One Ping ends up in the pool twice and two connections can
// be handed the same object. The fix acquires a Ping of its own for the reply
// and copies the payload.
//
// Check: doubleput (reported at the ReleaseFrameHeader(fr) in readNext: the
// Ping owned by fr is put back while the queued reply header still holds it
// and will put it back again).
package bug

import (
	"bufio"
	"io"
	"sync"
)

// FrameType is the HTTP/2 frame type.
type FrameType uint8

const (
	FrameData     FrameType = 0x0
	FrameSettings FrameType = 0x4
	FramePing     FrameType = 0x6
	frameTypes              = 0x7
)

// Frame is a frame body.
type Frame interface {
	Type() FrameType
	Reset()
}

// Ping is a PING frame body.
type Ping struct {
	ack  bool
	data [8]byte
}

func (p *Ping) Type() FrameType          { return FramePing }
func (p *Ping) Reset()                   { p.ack = false; p.data = [8]byte{} }
func (p *Ping) IsAck() bool              { return p.ack }
func (p *Ping) SetAck(ack bool)          { p.ack = ack }
func (p *Ping) Data() []byte             { return p.data[:] }
func (p *Ping) SetData(b []byte)         { copy(p.data[:], b) }
func (p *Ping) readFrom(b []byte)        { copy(p.data[:], b) }
func (p *Ping) appendTo(b []byte) []byte { return append(b, p.data[:]...) }

// Settings is a SETTINGS frame body.
type Settings struct {
	ack bool
}

func (s *Settings) Type() FrameType { return FrameSettings }
func (s *Settings) Reset()          { s.ack = false }

var framePools = func() [frameTypes]*sync.Pool {
	var pools [frameTypes]*sync.Pool
	pools[FramePing] = &sync.Pool{New: func() interface{} { return &Ping{} }}
	pools[FrameSettings] = &sync.Pool{New: func() interface{} { return &Settings{} }}
	return pools
}()

// AcquireFrame gets a frame body of the given type from its pool.
func AcquireFrame(ftype FrameType) Frame {
	fr := framePools[ftype].Get().(Frame)
	fr.Reset()
	return fr
}

// ReleaseFrame puts a frame body back into its pool.
func ReleaseFrame(fr Frame) {
	framePools[fr.Type()].Put(fr)
}

// FrameHeader is a frame header that owns its body.
type FrameHeader struct {
	kind   FrameType
	stream uint32
	fr     Frame
}

var frameHeaderPool = sync.Pool{New: func() interface{} { return &FrameHeader{} }}

// AcquireFrameHeader gets a header from the pool.
func AcquireFrameHeader() *FrameHeader {
	fr := frameHeaderPool.Get().(*FrameHeader)
	fr.Reset()
	return fr
}

// ReleaseFrameHeader releases the header and the body it owns.
func ReleaseFrameHeader(fr *FrameHeader) {
	if fr.fr != nil {
		ReleaseFrame(fr.fr)
	}
	fr.Reset()
	frameHeaderPool.Put(fr)
}

func (f *FrameHeader) Reset() {
	f.kind = 0
	f.stream = 0
	f.fr = nil
}

func (f *FrameHeader) Type() FrameType { return f.kind }
func (f *FrameHeader) Stream() uint32  { return f.stream }
func (f *FrameHeader) Body() Frame     { return f.fr }

// SetBody makes fr the body owned by this header.
func (f *FrameHeader) SetBody(fr Frame) {
	if fr == nil {
		panic("Body cannot be nil")
	}
	f.kind = fr.Type()
	f.fr = fr
}

// ReadFrameFrom reads a (ping-only, for this reproduction) frame.
func ReadFrameFrom(br *bufio.Reader) (*FrameHeader, error) {
	var hdr [9]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return nil, err
	}
	var payload [8]byte
	if _, err := io.ReadFull(br, payload[:]); err != nil {
		return nil, err
	}
	fr := AcquireFrameHeader()
	fr.stream = uint32(hdr[5])<<24 | uint32(hdr[6])<<16 | uint32(hdr[7])<<8 | uint32(hdr[8])
	body := AcquireFrame(FrameType(hdr[3]) % frameTypes)
	if ping, ok := body.(*Ping); ok {
		ping.readFrom(payload[:])
		ping.SetAck(hdr[4]&0x1 != 0)
	}
	fr.SetBody(body)
	return fr, nil
}

// Conn is a client connection.
type Conn struct {
	br     *bufio.Reader
	bw     *bufio.Writer
	out    chan *FrameHeader
	unacks int32
}

func (c *Conn) writeFrame(fr *FrameHeader) error {
	b := []byte{0, 0, 8, byte(fr.Type()), 0, 0, 0, 0, 0}
	if ping, ok := fr.Body().(*Ping); ok {
		if ping.IsAck() {
			b[4] = 1
		}
		b = ping.appendTo(b)
	}
	if _, err := c.bw.Write(b); err != nil {
		return err
	}
	return c.bw.Flush()
}

func (c *Conn) writeLoop() {
	for fr := range c.out {
		err := c.writeFrame(fr)
		if err != nil {
			return
		}
		ReleaseFrameHeader(fr)
	}
}

func (c *Conn) readNext() (fr *FrameHeader, err error) {
	for err == nil {
		fr, err = ReadFrameFrom(c.br)
		if err != nil {
			break
		}
		if fr.Stream() != 0 {
			break
		}

		switch fr.Type() {
		case FramePing:
			ping := fr.Body().(*Ping)
			if !ping.IsAck() {
				c.handlePing(ping)
			} else {
				c.unacks--
			}
		}

		ReleaseFrameHeader(fr) // want `doubleput`
	}
	return fr, err
}

func (c *Conn) handlePing(ping *Ping) {
	// reply back
	fr := AcquireFrameHeader()

	ping.SetAck(true)

	fr.SetBody(ping)

	c.out <- fr
}
