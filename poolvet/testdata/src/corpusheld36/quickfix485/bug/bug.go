// Package bug reproduces the shape of quickfixgo/quickfix#485
// (https://github.com/quickfixgo/quickfix/pull/485, commit 3287298af5d1402b5198c93fba8f26952373f57f
// "make fieldMap thread safe + remove recycling of msg addresses"): inbound FIX messages were recycled
// through a session-level message pool and their raw bytes through a shared buffer pool. Messages that
// arrive ahead of sequence are stashed (keepMessage = true) while a resend is pending. When the resend
// state drains the stash, it hands each stashed message back to the pool ("return stashed message to
// pool") and then processes that very message with inSession.FixMsgIn, so the message (and the raw
// buffer its fields point into) is used after it went back to the pools. returnToPool itself also reads
// and writes msg.rawMessage after putting msg back. The fix removed the recycling and allocates a new
// message and buffer per inbound message. (The project's free-list pools are modelled here as thin
// wrappers around sync.Pool.)
//
// Check: useafterput (in resendState.FixMsgIn, the FixMsgIn call on the stashed message after
// session.returnToPool; in returnToPool, the read of msg.rawMessage after messagePool.Put).
package bug

import (
	"bytes"
	"errors"
	"strconv"
	"sync"
)

const maxPooledBuffer = 64 << 10

// bufferPool holds byte buffers used to build inbound messages.
var bufferPool = sync.Pool{
	New: func() any { return new(bytes.Buffer) },
}

// Message is a parsed FIX message.
type Message struct {
	SeqNum  int
	MsgType string
	Body    []byte

	rawMessage *bytes.Buffer
	// keepMessage marks a message that must not be recycled after processing
	keepMessage bool
}

func (m *Message) reset() {
	m.SeqNum = 0
	m.MsgType = ""
	m.Body = nil
	m.rawMessage = nil
	m.keepMessage = false
}

// ParseMessage parses raw into msg; msg keeps a reference to raw.
func ParseMessage(msg *Message, raw *bytes.Buffer) error {
	msg.reset()
	msg.rawMessage = raw
	b := raw.Bytes()
	i := bytes.IndexByte(b, '|')
	if i < 0 {
		return errors.New("missing sequence number")
	}
	n, err := strconv.Atoi(string(b[:i]))
	if err != nil {
		return err
	}
	msg.SeqNum = n
	rest := b[i+1:]
	j := bytes.IndexByte(rest, '|')
	if j < 0 {
		return errors.New("missing msg type")
	}
	msg.MsgType = string(rest[:j])
	msg.Body = rest[j+1:]
	return nil
}

type messagePool struct {
	p sync.Pool
}

func (p *messagePool) Get() *Message {
	msg, _ := p.p.Get().(*Message)
	if msg == nil {
		msg = new(Message)
	}
	msg.keepMessage = false
	return msg
}

func (p *messagePool) Put(msg *Message) {
	p.p.Put(msg)
}

// Application receives the session's business messages.
type Application interface {
	FromApp(msg *Message) error
}

type session struct {
	nextTargetSeqNum int
	app              Application
	State            sessionState

	messagePool
}

func (s *session) returnToPool(msg *Message) {
	s.messagePool.Put(msg)
	if msg.rawMessage != nil { // want `useafterput`
		if msg.rawMessage.Cap() <= maxPooledBuffer {
			bufferPool.Put(msg.rawMessage)
		}
		msg.rawMessage = nil
	}
}

// readMessage copies one raw message into a pooled buffer.
func readMessage(wire []byte) *bytes.Buffer {
	msgBytes := bufferPool.Get().(*bytes.Buffer)
	msgBytes.Reset()
	msgBytes.Write(wire)
	return msgBytes
}

type sessionState interface {
	FixMsgIn(s *session, msg *Message) sessionState
}

type inSession struct{}

func (inSession) FixMsgIn(s *session, msg *Message) sessionState {
	switch {
	case msg.SeqNum > s.nextTargetSeqNum:
		var next resendState
		if cur, ok := s.State.(resendState); ok {
			next = cur
		}
		if next.messageStash == nil {
			next.messageStash = make(map[int]*Message)
		}
		next.resendRangeEnd = msg.SeqNum - 1
		next.messageStash[msg.SeqNum] = msg
		// do not reclaim stashed message
		msg.keepMessage = true
		return next
	case msg.SeqNum < s.nextTargetSeqNum:
		return inSession{}
	}
	if err := s.app.FromApp(msg); err != nil {
		return inSession{}
	}
	s.nextTargetSeqNum++
	return inSession{}
}

type resendState struct {
	messageStash   map[int]*Message
	resendRangeEnd int
}

func (s resendState) FixMsgIn(session *session, msg *Message) (nextState sessionState) {
	nextState = inSession{}.FixMsgIn(session, msg)
	if _, ok := nextState.(inSession); !ok {
		return nextState
	}
	if s.resendRangeEnd >= session.nextTargetSeqNum {
		return s
	}

	for len(s.messageStash) > 0 {
		targetSeqNum := session.nextTargetSeqNum
		msg, ok := s.messageStash[targetSeqNum]
		if !ok {
			break
		}

		delete(s.messageStash, targetSeqNum)

		// return stashed message to pool
		session.returnToPool(msg)

		nextState = inSession{}.FixMsgIn(session, msg) // want `useafterput`
		if _, ok := nextState.(inSession); !ok {
			return nextState
		}
	}
	return nextState
}

// Incoming handles one message read from the wire.
func (s *session) Incoming(wire []byte) {
	raw := readMessage(wire)
	msg := s.messagePool.Get()
	if err := ParseMessage(msg, raw); err == nil {
		s.State = s.State.FixMsgIn(s, msg)
	}

	if !msg.keepMessage {
		s.returnToPool(msg)
	}
}
