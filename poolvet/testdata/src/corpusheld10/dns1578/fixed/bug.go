// Package fixed is miekg/dns#1578 with the fix the issue asks for: the
// pool holds *[]byte, and the same pointer that was got is put back.
package fixed

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
		b := make([]byte, size)
		return &b
	}
}

func (srv *Server) readUDP(conn net.PacketConn) (*[]byte, int, net.Addr, error) {
	bp := srv.udpPool.Get().(*[]byte)
	n, from, err := conn.ReadFrom(*bp)
	if err != nil {
		srv.udpPool.Put(bp)
		return nil, 0, nil, err
	}
	return bp, n, from, nil
}

func (srv *Server) serveUDP(conn net.PacketConn) error {
	srv.init()
	for {
		bp, n, from, err := srv.readUDP(conn)
		if err != nil {
			return err
		}
		srv.Handler((*bp)[:n], from)
		srv.udpPool.Put(bp)
	}
}
