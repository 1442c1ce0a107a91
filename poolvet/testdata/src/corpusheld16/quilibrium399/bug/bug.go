// Package bug reproduces the shape of QuilibriumNetwork/monorepo#399
// (https://github.com/QuilibriumNetwork/monorepo/pull/399): message send
// and receive buffers came from sync.Pools and always went back, however
// large a message had made them. Near GOMEMLIMIT the node fell into a GC
// death spiral: the pooled large buffers were resurrected faster than they
// could be collected. The fix stops pooling large send buffers, then large
// receive buffers as well.
//
// Check: unbounded (a pooled *[]byte appended to by the message size on
// send, and re-made at the size read from the wire on receive, both put
// back with no bound on their capacity).
package bug

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

var sendPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 4096)
	return &b
}}

var recvPool = sync.Pool{New: func() any {
	b := make([]byte, 4096)
	return &b
}}

type Stream struct {
	r io.Reader
	w io.Writer
}

// Send frames msg with a length prefix and writes it in one call.
func (s *Stream) Send(msg []byte) error {
	bp := sendPool.Get().(*[]byte)
	b := (*bp)[:0]
	b = binary.BigEndian.AppendUint32(b, uint32(len(msg)))
	b = append(b, msg...)
	_, err := s.w.Write(b)
	*bp = b[:0]
	sendPool.Put(bp) // want `unbounded`
	return err
}

// Recv reads one length-prefixed message and returns a copy of it.
func (s *Stream) Recv() ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(s.r, hdr[:]); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(hdr[:]))
	bp := recvPool.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = make([]byte, n)
	}
	b := (*bp)[:n]
	_, err := io.ReadFull(s.r, b)
	var out []byte
	if err == nil {
		out = bytes.Clone(b)
	}
	recvPool.Put(bp) // want `unbounded`
	return out, err
}
