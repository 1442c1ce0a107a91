// Package fixed is a fix of facebook/dhcplb#38
// (https://github.com/facebook/dhcplb/pull/38). The project removed the pool
// and allocates each packet buffer; this twin keeps the pool and applies the
// fix SA6002 asks for instead: the pool holds *[]byte, so Put stores a
// pointer and does not allocate.
package fixed

import (
	"log"
	"net"
	"runtime/debug"
	"sync"
)

const packetBufSize = 1024

type Server struct {
	conn    *net.UDPConn
	version int
	bufPool sync.Pool
	handle  func(packet []byte, peer *net.UDPAddr)
}

func NewServer(conn *net.UDPConn, version int, handle func([]byte, *net.UDPAddr)) *Server {
	s := &Server{conn: conn, version: version, handle: handle}
	// pool to reuse packet buffers
	s.bufPool = sync.Pool{
		New: func() any {
			b := make([]byte, packetBufSize)
			return &b
		},
	}
	return s
}

func (s *Server) handleConnection() {
	bp := s.bufPool.Get().(*[]byte)
	buffer := *bp
	bytesRead, peer, err := s.conn.ReadFromUDP(buffer)
	if err != nil || bytesRead == 0 {
		s.bufPool.Put(bp)
		log.Printf("error reading from %s: %v", peer, err)
		return
	}

	go func() {
		defer func() {
			if r := recover(); r != nil {
				log.Printf("panicked handling v%d packet from %s: %v", s.version, peer, r)
				log.Printf("offending packet: %x", buffer[:bytesRead])
				log.Printf("%s", debug.Stack())
			}
			// always release this routine's buffer back to the pool
			s.bufPool.Put(bp)
		}()

		s.handle(buffer[:bytesRead], peer)
	}()
}

func (s *Server) ListenAndServe() {
	for {
		s.handleConnection()
	}
}
