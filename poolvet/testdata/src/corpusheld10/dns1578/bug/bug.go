// Package bug reproduces the shape of miekg/dns#1578
// (https://github.com/miekg/dns/issues/1578): the UDP server keeps its
// read buffers in a sync.Pool as []byte values. staticcheck flags every
// Put (SA6002): converting the slice header to an interface allocates on
// each Put, on the read-error path and again after the packet is served.
// The issue asks to put a reference to the slice (*[]byte) instead.
//
// Check: nonpointer (a []byte put into a sync.Pool on two paths).
package bug

import (
	"net"
	"sync"
)

type Server struct {
	UDPSize int
	udpPool sync.Pool
	Handler func(msg []byte, from net.Addr)
}

func (srv *Server) init() {
	size := srv.UDPSize
	srv.udpPool.New = func() any {
		return make([]byte, size)
	}
}

func (srv *Server) readUDP(conn net.PacketConn) ([]byte, net.Addr, error) {
	m := srv.udpPool.Get().([]byte)
	n, from, err := conn.ReadFrom(m)
	if err != nil {
		srv.udpPool.Put(m) // want `nonpointer`
		return nil, nil, err
	}
	return m[:n], from, nil
}

func (srv *Server) serveUDP(conn net.PacketConn) error {
	srv.init()
	for {
		m, from, err := srv.readUDP(conn)
		if err != nil {
			return err
		}
		srv.Handler(m, from)
		srv.udpPool.Put(m[:srv.UDPSize]) // want `nonpointer`
	}
}
