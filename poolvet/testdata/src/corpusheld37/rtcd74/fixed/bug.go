// Package bug reproduces the shape of mattermost/rtcd#74 (https://github.com/mattermost/rtcd/pull/74):
// "Use a sync.Pool to reuse read buffers". The Server got a bufPool whose New
// returns a plain make([]byte, receiveMTU); the per-track forwarding loop takes a
// buffer, reads an RTP packet into it, unmarshals, writes it out, remembers the
// payload length and puts the slice (not a pointer to it) back, so each Put
// allocates to box the slice header. The pool was dropped again in
// commit 7131c593c2a817ccccd8aae2c326871ee64814a0 (mattermost/rtcd#98), which reads
// packets with ReadRTP instead.
// Check: nonpointer; fixed twin: the project's fix, each packet is read into
// its own allocation and no pool is used.
package bug

import (
	"errors"
	"sync"
)

const receiveMTU = 1460

type Packet struct {
	SequenceNumber uint16
	Payload        []byte
}

func (p *Packet) Unmarshal(b []byte) error {
	if len(b) < 12 {
		return errors.New("short packet")
	}
	p.SequenceNumber = uint16(b[2])<<8 | uint16(b[3])
	p.Payload = b[12:]
	return nil
}

type remoteTrack interface {
	Read(b []byte) (int, error)
}

// readRTP plays the role of TrackRemote.ReadRTP: it allocates a fresh buffer.
func readRTP(in remoteTrack) (*Packet, error) {
	b := make([]byte, receiveMTU)
	i, err := in.Read(b)
	if err != nil {
		return nil, err
	}
	p := &Packet{}
	if err := p.Unmarshal(b[:i]); err != nil {
		return nil, err
	}
	return p, nil
}

type localTrack interface {
	WriteRTP(p *Packet) error
}

type Metrics interface {
	IncRTCErrors(group, kind string)
	AddRTPPacketBytes(dir, trackType string, n int)
}

type session struct {
	userID string
}

type call struct {
	mu       sync.RWMutex
	sessions map[string]*session
}

func (c *call) iterSessions(fn func(s *session)) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, s := range c.sessions {
		fn(s)
	}
}

type Server struct {
	metrics Metrics
}

func NewServer(m Metrics) *Server {
	return &Server{metrics: m}
}

func (s *Server) forward(c *call, userID, group, trackType string, in remoteTrack, out localTrack) {
	for {
		rtp, err := readRTP(in)
		if err != nil {
			s.metrics.IncRTCErrors(group, "rtp")
			return
		}

		if err := out.WriteRTP(rtp); err != nil {
			s.metrics.IncRTCErrors(group, "rtp")
			return
		}
		pLen := len(rtp.Payload)

		c.iterSessions(func(ss *session) {
			if ss.userID == userID {
				return
			}
			s.metrics.AddRTPPacketBytes("out", trackType, pLen)
		})
	}
}
