// Package bug reproduces the shape of chihaya/chihaya#549
// (https://github.com/chihaya/chihaya/pull/549): the UDP frontend's BytePool
// wrapped a sync.Pool of fixed-length []byte packet buffers. Putting a slice
// into the pool converts its header to an interface, which allocates on
// every packet, so the pool still allocated per request. The new linters in
// that PR caught it and the pool was changed to hold *[]byte.
//
// Check: nonpointer (a []byte put into a sync.Pool inside the wrapper's Put)
package bug

import (
	"net"
	"sync"
)

// BytePool is a cached pool of reusable byte slices.
type BytePool struct {
	sync.Pool
}

// New allocates a new BytePool with slices of equal length and capacity.
func New(length int) *BytePool {
	var bp BytePool
	bp.Pool.New = func() any {
		return make([]byte, length)
	}
	return &bp
}

// Get returns a byte slice from the pool.
func (bp *BytePool) Get() []byte {
	return bp.Pool.Get().([]byte)
}

// Put returns a byte slice to the pool.
func (bp *BytePool) Put(b []byte) {
	bp.Pool.Put(b) // want `nonpointer`
}

type Frontend struct {
	socket *net.UDPConn
	pool   *BytePool
	handle func(addr *net.UDPAddr, packet []byte)
}

// serveOne reads and handles one packet.
func (t *Frontend) serveOne() error {
	buffer := t.pool.Get()
	n, addr, err := t.socket.ReadFromUDP(buffer)
	if err != nil {
		t.pool.Put(buffer)
		return err
	}
	if n > 0 {
		t.handle(addr, buffer[:n])
	}
	t.pool.Put(buffer)
	return nil
}
