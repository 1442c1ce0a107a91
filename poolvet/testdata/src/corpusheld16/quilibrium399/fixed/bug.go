// Package fixed is QuilibriumNetwork/monorepo#399 after the fix: buffers
// that grew past a threshold are not put back into the pools.
package fixed

import (
	"bytes"
	"encoding/binary"
	"io"
	"sync"
)

const maxPooled = 64 << 10

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
	if cap(*bp) <= maxPooled {
		sendPool.Put(bp)
	}
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
	if cap(*bp) <= maxPooled {
		recvPool.Put(bp)
	}
	return out, err
}
