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
// Fixed twin: no recycling of messages or raw buffers.
package bug

import (
	"bytes"
	"errors"
	"strconv"
)

// Message is a parsed FIX message.
type Message struct {
	SeqNum  int
	MsgType string
	Body    []byte

	rawMessage *bytes.Buffer
}

// NewMessage returns a new, empty message.
func NewMessage() *Message {
	return new(Message)
}

// ParseMessage parses raw into msg; msg keeps a reference to raw.
func ParseMessage(msg *Message, raw *bytes.Buffer) error {
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

// Application receives the session's business messages.
type Application interface {
	FromApp(msg *Message) error
}

type session struct {
	nextTargetSeqNum int
	app              Application
	State            sessionState
}

// readMessage copies one raw message into a new buffer.
func readMessage(wire []byte) *bytes.Buffer {
	msgBytes := new(bytes.Buffer)
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

		nextState = inSession{}.FixMsgIn(session, msg)
		if _, ok := nextState.(inSession); !ok {
			return nextState
		}
	}
	return nextState
}

// Incoming handles one message read from the wire.
func (s *session) Incoming(wire []byte) {
	raw := readMessage(wire)
	msg := NewMessage()
	if err := ParseMessage(msg, raw); err == nil {
		s.State = s.State.FixMsgIn(s, msg)
	}
}
