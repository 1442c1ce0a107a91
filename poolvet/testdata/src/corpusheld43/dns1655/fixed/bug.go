// Package bug is the fixed twin of miekg/dns#1655 (https://github.com/miekg/dns/pull/1655):
// the pool holds *[]byte consistently, so New, every Get and every Put agree
// on the type, and the error path puts back the very pointer it got.
// Check: typemismatch (none expected here).
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
		b := make([]byte, size)
		return &b
	}
}

func (srv *Server) init() {
	if srv.UDPSize == 0 {
		srv.UDPSize = minMsgSize
	}
	srv.udpPool.New = makeUDPBuffer(srv.UDPSize)
}

func (srv *Server) readUDP(conn net.PacketConn, timeout time.Duration) (*[]byte, int, net.Addr, error) {
	conn.SetReadDeadline(time.Now().Add(timeout))
	bp := srv.udpPool.Get().(*[]byte)
	n, addr, err := conn.ReadFrom(*bp)
	if err != nil {
		srv.udpPool.Put(bp)
		return nil, 0, nil, err
	}
	return bp, n, addr, nil
}

func (srv *Server) serveUDP(conn net.PacketConn) error {
	srv.init()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		bp, n, addr, err := srv.readUDP(conn, srv.ReadTimeout)
		if err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				continue
			}
			return err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.Handler((*bp)[:n], addr)
			if cap(*bp) == srv.UDPSize {
				srv.udpPool.Put(bp)
			}
		}()
	}
}
