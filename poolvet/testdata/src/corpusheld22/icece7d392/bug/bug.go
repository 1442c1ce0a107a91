// Package bug reproduces the shape of pion/ice commit ce7d392
// (https://github.com/pion/ice/commit/ce7d392e37467e44645103b116e1f0f9d5b96504,
// "Use *[]byte in bufferPool to reduce allocs"): the candidate receive loop
// pools its MTU-sized read buffer as a bare []byte. New returns a slice value,
// recvLoop takes the untyped value from Get, defers the Put of that value and
// only then type-asserts it to []byte, so the pool stores slice headers boxed
// in interfaces instead of pointers.
// Check: nonpointer (the deferred Put in recvLoop).
package bug

import (
	"errors"
	"io"
	"log"
	"net"
	"sync"
)

const receiveMTU = 8192

type candidateBase struct {
	conn     net.PacketConn
	closeCh  chan struct{}
	closedCh chan struct{}

	onPacket func([]byte, net.Addr)
}

func (c *candidateBase) start(conn net.PacketConn, initializedCh <-chan struct{}) {
	if c.conn != nil {
		log.Print("Can't start already started candidateBase")

		return
	}
	c.conn = conn
	c.closeCh = make(chan struct{})
	c.closedCh = make(chan struct{})

	go c.recvLoop(initializedCh)
}

var bufferPool = sync.Pool{ // nolint:gochecknoglobals
	New: func() any {
		return make([]byte, receiveMTU)
	},
}

func (c *candidateBase) recvLoop(initializedCh <-chan struct{}) {
	defer close(c.closedCh)

	select {
	case <-initializedCh:
	case <-c.closeCh:
		return
	}

	bufferPoolBuffer := bufferPool.Get()
	defer bufferPool.Put(bufferPoolBuffer) // want `nonpointer`
	buf, ok := bufferPoolBuffer.([]byte)
	if !ok {
		return
	}

	for {
		n, srcAddr, err := c.conn.ReadFrom(buf)
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				log.Printf("Failed to read from candidate: %v", err)
			}

			return
		}

		c.handleInboundPacket(buf[:n], srcAddr)
	}
}

func (c *candidateBase) handleInboundPacket(buf []byte, srcAddr net.Addr) {
	// Explicitly copy raw buffer so the handler can own the memory.
	raw := make([]byte, len(buf))
	copy(raw, buf)
	if c.onPacket != nil {
		c.onPacket(raw, srcAddr)
	}
}
