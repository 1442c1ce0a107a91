// Package bug reproduces the shape of nats-io/nats-server#8244
// (https://github.com/nats-io/nats-server/pull/8244, "Fix potential pooled
// buffer reuse in compressed WebSocket connections"). The compressed payload
// lives in one buffer taken from the size-class pools; when it was split into
// frames, every frame was a sub-slice of that same buffer, and the flush path
// returns every frame it wrote to the pools. Several frames of one array could
// so be put back, and two later users could be handed the same memory.
//
// Check: doubleput (several slices of one pooled array are put back by the
// flush loop; the report is expected at the Put in that loop).
package bug

import (
	"bytes"
	"compress/flate"
	"io"
	"net"
	"sync"
)

const (
	nbPoolSizeSmall  = 512
	nbPoolSizeMedium = 4096
	nbPoolSizeLarge  = 65536

	maxFrameHeaderSize = 14
)

var (
	nbPoolSmall = &sync.Pool{New: func() any {
		b := [nbPoolSizeSmall]byte{}
		return &b
	}}
	nbPoolMedium = &sync.Pool{New: func() any {
		b := [nbPoolSizeMedium]byte{}
		return &b
	}}
	nbPoolLarge = &sync.Pool{New: func() any {
		b := [nbPoolSizeLarge]byte{}
		return &b
	}}
)

func nbPoolGet(sz int) []byte {
	switch {
	case sz <= nbPoolSizeSmall:
		return nbPoolSmall.Get().(*[nbPoolSizeSmall]byte)[:0]
	case sz <= nbPoolSizeMedium:
		return nbPoolMedium.Get().(*[nbPoolSizeMedium]byte)[:0]
	default:
		return nbPoolLarge.Get().(*[nbPoolSizeLarge]byte)[:0]
	}
}

// nbPoolPut recycles a buffer from nbPoolGet; buffers of another capacity
// are dropped.
func nbPoolPut(b []byte) {
	switch cap(b) {
	case nbPoolSizeSmall:
		nbPoolSmall.Put((*[nbPoolSizeSmall]byte)(b[0:nbPoolSizeSmall]))
	case nbPoolSizeMedium:
		nbPoolMedium.Put((*[nbPoolSizeMedium]byte)(b[0:nbPoolSizeMedium]))
	case nbPoolSizeLarge:
		nbPoolLarge.Put((*[nbPoolSizeLarge]byte)(b[0:nbPoolSizeLarge]))
	}
}

type client struct {
	compressor *flate.Writer
	maxFrame   int
}

func fillFrameHeader(fh []byte, first, final bool, length int) int {
	fh[0] = 2
	if final {
		fh[0] |= 0x80
	}
	if first {
		fh[0] |= 0x40
	}
	fh[1] = 127
	for i := 0; i < 8; i++ {
		fh[2+i] = byte(length >> (56 - 8*i))
	}
	return 10
}

// collapse compresses payload and frames it, each frame at most maxFrame
// bytes long.
func (c *client) collapse(payload []byte) (net.Buffers, error) {
	buf := bytes.NewBuffer(nbPoolGet(len(payload)))
	if c.compressor == nil {
		w, err := flate.NewWriter(buf, flate.BestSpeed)
		if err != nil {
			return nil, err
		}
		c.compressor = w
	} else {
		c.compressor.Reset(buf)
	}
	if _, err := c.compressor.Write(payload); err != nil {
		return nil, err
	}
	if err := c.compressor.Flush(); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	p := b[:len(b)-4]
	var bufs net.Buffers
	for first := true; len(p) > 0; first = false {
		lp := len(p)
		final := true
		if lp > c.maxFrame {
			lp, final = c.maxFrame, false
		}
		fh := nbPoolGet(maxFrameHeaderSize)[:maxFrameHeaderSize]
		n := fillFrameHeader(fh, first, final, lp)
		bufs = append(bufs, fh[:n], p[:lp])
		p = p[lp:]
	}
	c.compressor.Reset(nil)
	return bufs, nil
}

// flushOutbound writes payload and recycles every buffer it wrote.
func (c *client) flushOutbound(w io.Writer, payload []byte) error {
	bufs, err := c.collapse(payload)
	if err != nil {
		return err
	}
	for _, b := range bufs {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	for _, b := range bufs {
		nbPoolPut(b) // want `doubleput`
	}
	return nil
}
