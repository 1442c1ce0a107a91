// Package bug reproduces the shape of semihalev/sdns commit 954f302
// (https://github.com/semihalev/sdns/commit/954f302fa7fdd5ed0fe82275a9e353e070219b84,
// "Enhance DoQ message pool cleanup"): the DNS-over-QUIC server takes
// request messages from a sync.Pool through acquireMsg and gives them back
// through releaseMsg, which only drops the four record sections. The header
// (Id, Response, Opcode, flag bits, Rcode) of the previous request stays in
// the pooled message and is seen by the next request that reuses it.
//
// Check: noreset (releaseMsg forgets the header fields; report at its Put).
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const (
	maxMsgSize       = 65535
	minMsgHeaderSize = 14
)

// MsgHdr is the header part of a DNS message.
type MsgHdr struct {
	Id                 uint16
	Response           bool
	Opcode             int
	Authoritative      bool
	Truncated          bool
	RecursionDesired   bool
	RecursionAvailable bool
	Zero               bool
	AuthenticatedData  bool
	CheckingDisabled   bool
	Rcode              int
}

// Msg is a stand-in for a DNS message.
type Msg struct {
	MsgHdr
	Question []string
	Answer   []string
	Ns       []string
	Extra    []string
}

// Unpack fills the message from wire data. Like a decoder that only
// touches what it finds, it leaves the flag bits it does not see alone.
func (m *Msg) Unpack(b []byte) error {
	if len(b) < 12 {
		return errors.New("dns msg too short")
	}
	m.Id = binary.BigEndian.Uint16(b[0:2])
	flags := binary.BigEndian.Uint16(b[2:4])
	if flags&(1<<8) != 0 {
		m.RecursionDesired = true
	}
	if flags&(1<<4) != 0 {
		m.CheckingDisabled = true
	}
	if len(b) > 12 {
		m.Question = append(m.Question, string(b[12:]))
	}
	return nil
}

// Handler serves one DNS request.
type Handler interface {
	ServeDNS(w io.Writer, r *Msg)
}

// Server is the DNS-over-QUIC front end.
type Server struct {
	Handler Handler
}

// Message pool for better memory management.
var msgPool = sync.Pool{
	New: func() any {
		return new(Msg)
	},
}

func acquireMsg() *Msg {
	return msgPool.Get().(*Msg)
}

func releaseMsg(m *Msg) {
	m.Question = nil
	m.Answer = nil
	m.Ns = nil
	m.Extra = nil
	msgPool.Put(m) // want `noreset`
}

func (s *Server) handleStream(stream io.ReadWriteCloser) {
	defer stream.Close()

	buf, err := io.ReadAll(io.LimitReader(stream, maxMsgSize))
	if err != nil {
		return
	}

	if len(buf) < minMsgHeaderSize {
		return
	}

	msgLen := binary.BigEndian.Uint16(buf[:2])
	if int(msgLen) != len(buf)-2 {
		return
	}

	req := acquireMsg()
	defer releaseMsg(req)

	if err := req.Unpack(buf[2:]); err != nil {
		return
	}

	s.Handler.ServeDNS(stream, req)
}
