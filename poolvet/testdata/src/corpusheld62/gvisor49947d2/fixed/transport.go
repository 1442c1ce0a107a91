// Source: https://github.com/google/gvisor/commit/49947d2eb9506d85ec735d17d00060d59997c452
// ("Eliminate one allocation per send/recv for non-flipcall transport",
// https://github.com/google/gvisor/pull/3582), pkg/p9/transport.go; the
// commit is gVisor's own fix of its copy of the code, ported from the
// same change in hugelgupf/p9.
//
// Bug: the p9 transport keeps its encode/decode buffers in a sync.Pool
// (dataPool) as plain []byte values. send() takes a []byte out of the pool,
// wraps it in a buffer, lets the message encoder grow it, and puts
// dataBuf.data (a slice header, not a pointer) back. Every Put boxes the
// three-word slice header into an interface, allocating on each message
// (staticcheck SA6002); the benchmark in the commit shows one allocation per
// send and one per recv going away.
//
// Fix: New returns a *[]byte, send() asserts *[]byte, and the Put passes
// &dataBuf.data. (recv() got the same treatment through an appendBuffer
// helper; it is left out here.)
//
// Check: nonpointer (the dataPool.Put of dataBuf.data at the end of send puts
// a []byte value into a sync.Pool)
package fixed

import (
	"encoding/binary"
	"sync"
)

const (
	// headerLength is the number of bytes required for a header.
	headerLength uint32 = 7

	// initialBufferLength is the initial data buffer we allocate.
	initialBufferLength uint32 = 64
)

// Tag is a message tag.
type Tag uint16

// MsgType is a message type.
type MsgType uint8

// buffer is a slice that is consumed.
type buffer struct {
	data     []byte
	overflow bool
}

// grow grows the buffer by n bytes and returns the new region.
func (b *buffer) grow(n int) []byte {
	if len(b.data)+n > cap(b.data) {
		nd := make([]byte, len(b.data), 2*(len(b.data)+n))
		copy(nd, b.data)
		b.data = nd
	}
	b.data = b.data[:len(b.data)+n]
	return b.data[len(b.data)-n:]
}

// Write8 writes a byte.
func (b *buffer) Write8(v uint8) { b.grow(1)[0] = v }

// Write16 writes a uint16.
func (b *buffer) Write16(v uint16) { binary.LittleEndian.PutUint16(b.grow(2), v) }

// Write32 writes a uint32.
func (b *buffer) Write32(v uint32) { binary.LittleEndian.PutUint32(b.grow(4), v) }

// WriteMsgType writes a message type.
func (b *buffer) WriteMsgType(t MsgType) { b.Write8(uint8(t)) }

// WriteTag writes a tag.
func (b *buffer) WriteTag(t Tag) { b.Write16(uint16(t)) }

// message is a generic 9P message.
type message interface {
	encode(b *buffer)
	Type() MsgType
}

// payloader is a message with a payload.
type payloader interface {
	Payload() []byte
}

// vecWriter stands in for unet.Socket's writer.
type vecWriter interface {
	WriteVec(bufs [][]byte) (int, error)
}

// ErrSocket is returned in cases of a socket issue.
type ErrSocket struct {
	error
}

var dataPool = sync.Pool{
	New: func() interface{} {
		// These buffers are used for decoding without a payload.
		// We need to return a pointer to avoid unnecessary allocations
		// (see https://staticcheck.io/docs/checks#SA6002).
		b := make([]byte, initialBufferLength)
		return &b
	},
}

// send sends the given message over the socket.
func send(w vecWriter, tag Tag, m message) error {
	data := dataPool.Get().(*[]byte)
	dataBuf := buffer{data: (*data)[:0]}

	// Encode the message. The buffer will grow automatically.
	m.encode(&dataBuf)

	// Get our vectors to send.
	var hdr [headerLength]byte
	vecs := make([][]byte, 0, 3)
	vecs = append(vecs, hdr[:])
	if len(dataBuf.data) > 0 {
		vecs = append(vecs, dataBuf.data)
	}
	totalLength := headerLength + uint32(len(dataBuf.data))

	// Is there a payload?
	if payloader, ok := m.(payloader); ok {
		p := payloader.Payload()
		if len(p) > 0 {
			vecs = append(vecs, p)
			totalLength += uint32(len(p))
		}
	}

	// Construct the header.
	headerBuf := buffer{data: hdr[:0]}
	headerBuf.Write32(totalLength)
	headerBuf.WriteMsgType(m.Type())
	headerBuf.WriteTag(tag)

	for n := 0; n < int(totalLength); {
		cur, err := w.WriteVec(vecs)
		if err != nil {
			return ErrSocket{err}
		}
		n += cur

		// Consume iovecs.
		for consumed := 0; consumed < cur; {
			if len(vecs[0]) <= cur-consumed {
				consumed += len(vecs[0])
				vecs = vecs[1:]
			} else {
				vecs[0] = vecs[0][cur-consumed:]
				break
			}
		}
	}

	// All set.
	dataPool.Put(&dataBuf.data)
	return nil
}
