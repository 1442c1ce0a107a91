// Package bug reproduces the shape of kettek/apng#13 (and #11)
// (https://github.com/kettek/apng/pull/13): encoders reused through the
// buffer pool kept the chunk sequence number (seq) of the previous
// animation, so a reused encoder wrote frames with wrong sequence numbers.
//
// Check: noreset (a pooled encoder reused with one field left from the
// previous user).
package bug

import (
	"encoding/binary"
	"io"
	"sync"
)

type encoder struct {
	w   io.Writer
	seq uint32
	hdr [4]byte
}

func (e *encoder) writeFrame(frame []byte) error {
	binary.BigEndian.PutUint32(e.hdr[:], e.seq)
	e.seq++
	if _, err := e.w.Write(e.hdr[:]); err != nil {
		return err
	}
	_, err := e.w.Write(frame)
	return err
}

var encoderPool sync.Pool

func Encode(w io.Writer, frames [][]byte) error {
	e, _ := encoderPool.Get().(*encoder)
	if e == nil {
		e = &encoder{}
	}
	e.w = w
	for _, f := range frames {
		if err := e.writeFrame(f); err != nil {
			return err
		}
	}
	e.w = nil
	encoderPool.Put(e) // want `noreset|without Reset|not reset|stale|seq`
	return nil
}
