// Package fixed is the fix of kettek/apng#13
// (https://github.com/kettek/apng/pull/13): seq is set to 0 right after
// the encoder is taken from the pool.
package fixed

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
	e.seq = 0
	e.w = w
	for _, f := range frames {
		if err := e.writeFrame(f); err != nil {
			return err
		}
	}
	e.w = nil
	encoderPool.Put(e)
	return nil
}
