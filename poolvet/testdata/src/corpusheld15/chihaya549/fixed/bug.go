// Package fixed is the twin of ../bug for chihaya/chihaya#549
// (https://github.com/chihaya/chihaya/pull/549): the pool holds *[]byte, so
// returning a buffer does not allocate.
package fixed

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
		b := make([]byte, length)
		return &b
	}
	return &bp
}

// Get returns a byte slice from the pool.
func (bp *BytePool) Get() *[]byte {
	return bp.Pool.Get().(*[]byte)
}

// Put returns a byte slice to the pool.
func (bp *BytePool) Put(b *[]byte) {
	bp.Pool.Put(b)
}

type Frontend struct {
	socket *net.UDPConn
	pool   *BytePool
	handle func(addr *net.UDPAddr, packet []byte)
}

// serveOne reads and handles one packet.
func (t *Frontend) serveOne() error {
	buffer := t.pool.Get()
	n, addr, err := t.socket.ReadFromUDP(*buffer)
	if err != nil {
		t.pool.Put(buffer)
		return err
	}
	if n > 0 {
		t.handle(addr, (*buffer)[:n])
	}
	t.pool.Put(buffer)
	return nil
}
