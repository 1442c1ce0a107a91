// Package bug reproduces the shape of miekg/dns#1655 (https://github.com/miekg/dns/pull/1655):
// commit 410c628 ("Avoid couple allocations when reading packages") followed a
// staticcheck SA6002 hint and changed the error-path Put in readUDP and
// readPacketConn from Put(m) to Put(&m). The pool's New still builds a plain
// []byte and every Get asserts .([]byte), so after one failed read the pool
// holds a *[]byte and the next Get panics on the type assertion. The recycle
// after serving a packet still puts the bare slice back.
// Check: typemismatch (at the Put(&m) in readUDP's error path); the recycle of
// the bare slice in serveUDP is a nonpointer Put.
package bug

import (
	"net"
	"sync"
	"time"
)

const minMsgSize = 512

type Server struct {
	UDPSize     int
	ReadTimeout time.Duration
	Handler     func(m []byte, addr net.Addr)

	udpPool sync.Pool
}

func makeUDPBuffer(size int) func() interface{} {
	return func() interface{} {
		return make([]byte, size)
	}
}

func (srv *Server) init() {
	if srv.UDPSize == 0 {
		srv.UDPSize = minMsgSize
	}
	srv.udpPool.New = makeUDPBuffer(srv.UDPSize)
}

func (srv *Server) readUDP(conn net.PacketConn, timeout time.Duration) ([]byte, net.Addr, error) {
	conn.SetReadDeadline(time.Now().Add(timeout))
	m := srv.udpPool.Get().([]byte)
	n, addr, err := conn.ReadFrom(m)
	if err != nil {
		srv.udpPool.Put(&m) // want `typemismatch`
		return nil, nil, err
	}
	m = m[:n]
	return m, addr, nil
}

func (srv *Server) serveUDP(conn net.PacketConn) error {
	srv.init()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		m, addr, err := srv.readUDP(conn, srv.ReadTimeout)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.Handler(m, addr)
			if cap(m) == srv.UDPSize {
				srv.udpPool.Put(m[:srv.UDPSize]) // want `nonpointer`
			}
		}()
	}
}
