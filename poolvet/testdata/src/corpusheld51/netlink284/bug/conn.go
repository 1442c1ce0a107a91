// Source: https://github.com/mdlayher/netlink/pull/284
// (commit bf38b1689d9489a5df083ff3961ea79e9240f894, "conn_linux: copy pooled
// receive buffers before parsing").
//
// Bug: with Config.MessageBufferSize set, conn.ReceiveIter takes its receive
// buffer from a sync.Pool (getBuffer returns the buffer and a release func
// that Puts it back), defers release(), and parses the messages straight out
// of the pooled buffer. Message.UnmarshalBinary keeps Message.Data as a
// sub-slice of that buffer, so the messages yielded to the caller alias
// pooled memory. Receive collects them and returns them after the iterator
// (and its deferred release) has finished, so a later Receive reusing the
// buffer overwrites the payloads of messages already returned.
//
// Fix: in the pooled path, copy the received bytes into a freshly allocated
// aligned buffer (ownedBuffer) and parse from that; the non-pooled path is
// unchanged.
//
// Check: useafterput (at Receive's return of msgs, whose Data slices point
// into the buffer that ReceiveIter's deferred release put back in the pool)
package bug

import (
	"encoding/binary"
	"errors"
	"iter"
	"sync"
	"unsafe"
)

var (
	errShortMessage           = errors.New("netlink: short message")
	errUnalignedMessage       = errors.New("netlink: unaligned message")
	errIncorrectMessageLength = errors.New("netlink: message header length incorrect")
	errMessageTruncated       = errors.New("netlink: message truncated")
)

const msgTrunc = 0x20

type Header struct {
	Length   uint32
	Type     uint16
	Flags    uint16
	Sequence uint32
	PID      uint32
}

type Message struct {
	Header Header
	Data   []byte
}

const nlmsgAlignTo = 4

func nlmsgAlign(length int) int {
	return ((length) + nlmsgAlignTo - 1) & ^(nlmsgAlignTo - 1)
}

var nlmsgHeaderLen = nlmsgAlign(int(unsafe.Sizeof(Header{})))

func (m *Message) UnmarshalBinary(b []byte) error {
	if len(b) < nlmsgHeaderLen {
		return errShortMessage
	}
	if len(b) != nlmsgAlign(len(b)) {
		return errUnalignedMessage
	}

	m.Header.Length = binary.NativeEndian.Uint32(b[0:])
	if int(m.Header.Length) != len(b) {
		return errShortMessage
	}

	m.Header.Type = binary.NativeEndian.Uint16(b[4:])
	m.Header.Flags = binary.NativeEndian.Uint16(b[6:])
	m.Header.Sequence = binary.NativeEndian.Uint32(b[8:])
	m.Header.PID = binary.NativeEndian.Uint32(b[12:])
	m.Data = b[16:]

	return nil
}

func parseMessagesIter(b []byte) iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		for len(b) >= nlmsgHeaderLen {
			length := binary.NativeEndian.Uint32(b[0:])
			if int(length) < nlmsgHeaderLen {
				yield(Message{}, errIncorrectMessageLength)
				return
			}

			alength := nlmsgAlign(int(length))
			if alength > len(b) {
				yield(Message{}, errShortMessage)
				return
			}

			var message Message
			if err := message.UnmarshalBinary(b[:alength]); err != nil {
				yield(Message{}, err)
				return
			}

			if !yield(message, nil) {
				return
			}

			b = b[alength:]
		}
	}
}

// socketConn stands in for *socket.Conn.
type socketConn interface {
	Recvmsg(p, oob []byte, flags int) (n, oobn, recvflags int, err error)
}

type conn struct {
	s    socketConn
	pool *sync.Pool
}

type Config struct {
	MessageBufferSize int
}

func newConn(s socketConn, config *Config) *conn {
	c := &conn{s: s}

	if config.MessageBufferSize > 0 {
		c.pool = &sync.Pool{
			New: func() any {
				b := make([]byte, config.MessageBufferSize)
				return &b
			},
		}
	}
	return c
}

// Receive receives one or more Messages from netlink.
func (c *conn) Receive() ([]Message, error) {
	var msgs []Message
	for msg, err := range c.ReceiveIter() {
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
	}

	return msgs, nil // want `useafterput`
}

func (c *conn) getBuffer() ([]byte, func(), error) {
	if c.pool != nil {
		bp := c.pool.Get().(*[]byte)
		return *bp, func() { c.pool.Put(bp) }, nil
	}

	n, _, _, err := c.s.Recvmsg(nil, nil, 0x2|msgTrunc)
	if err != nil {
		return nil, nil, err
	}

	return make([]byte, nlmsgAlign(n)), func() {}, nil
}

// ReceiveIter returns an iterator over Messages received from netlink.
func (c *conn) ReceiveIter() iter.Seq2[Message, error] {
	return func(yield func(Message, error) bool) {
		b, release, err := c.getBuffer()
		if err != nil {
			yield(Message{}, err)
			return
		}
		defer release()

		n, _, flags, err := c.s.Recvmsg(b, nil, 0)
		if err != nil {
			yield(Message{}, err)
			return
		}

		if flags&msgTrunc != 0 {
			yield(Message{}, errMessageTruncated)
			return
		}

		for msg, err := range parseMessagesIter(b[:nlmsgAlign(n)]) {
			if err != nil {
				yield(Message{}, err)
				return
			}

			if !yield(msg, nil) {
				return
			}
		}
	}
}
