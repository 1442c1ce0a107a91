// Package bug reproduces the shape of mattermost/rtcd#74 (https://github.com/mattermost/rtcd/pull/74):
// "Use a sync.Pool to reuse read buffers". The Server got a bufPool whose New
// returns a plain make([]byte, receiveMTU); the per-track forwarding loop takes a
// buffer, reads an RTP packet into it, unmarshals, writes it out, remembers the
// payload length and puts the slice (not a pointer to it) back, so each Put
// allocates to box the slice header. The pool was dropped again in
// commit 7131c593c2a817ccccd8aae2c326871ee64814a0 (mattermost/rtcd#98), which reads
// packets with ReadRTP instead.
// Check: nonpointer (a []byte put into the sync.Pool); report at s.bufPool.Put(buf).
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
	bufPool *sync.Pool
}

func NewServer(m Metrics) *Server {
	return &Server{
		metrics: m,
		bufPool: &sync.Pool{New: func() interface{} { return make([]byte, receiveMTU) }},
	}
}

func (s *Server) forward(c *call, userID, group, trackType string, in remoteTrack, out localTrack) {
	for {
		buf := s.bufPool.Get().([]byte)
		i, err := in.Read(buf)
		if err != nil {
			s.metrics.IncRTCErrors(group, "rtp")
			return
		}

		rtp := &Packet{}
		if err := rtp.Unmarshal(buf[:i]); err != nil {
			s.metrics.IncRTCErrors(group, "rtp")
			return
		}

		if err := out.WriteRTP(rtp); err != nil {
			s.metrics.IncRTCErrors(group, "rtp")
			return
		}
		pLen := len(rtp.Payload)
		s.bufPool.Put(buf) // want `nonpointer`

		c.iterSessions(func(ss *session) {
			if ss.userID == userID {
				return
			}
			s.metrics.AddRTPPacketBytes("out", trackType, pLen)
		})
	}
}
