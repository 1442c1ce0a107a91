// Package bug reproduces the fix of pion/ice commit ce7d392
// (https://github.com/pion/ice/commit/ce7d392e37467e44645103b116e1f0f9d5b96504):
// the receive buffer pool holds *[]byte, and recvLoop puts the pointer back.
// Check: nonpointer (fixed twin: no report expected).
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
		buf := make([]byte, receiveMTU)

		return &buf
	},
}

func (c *candidateBase) recvLoop(initializedCh <-chan struct{}) {
	defer close(c.closedCh)

	select {
	case <-initializedCh:
	case <-c.closeCh:
		return
	}

	bufPtr, ok := bufferPool.Get().(*[]byte)
	if !ok {
		return
	}
	defer bufferPool.Put(bufPtr)
	buf := *bufPtr

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
