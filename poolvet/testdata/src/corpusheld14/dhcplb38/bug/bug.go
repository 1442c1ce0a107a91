// Package bug reproduces the shape of facebook/dhcplb#38
// (https://github.com/facebook/dhcplb/pull/38, "fix lint: remove sync pool"):
// the server kept its UDP packet buffers in a sync.Pool as plain []byte
// values. Every Put of a slice converts the slice header to an interface and
// allocates, which is what the staticcheck run (SA6002) flagged; the project
// dropped the pool.
//
// Check: nonpointer (a []byte put into a sync.Pool), at both Puts: the read
// error path and the deferred release in the handling goroutine. The packet
// size is a constant here (a config field in dhcplb), and the Put in the
// deferred function is placed after the panic logging that still prints the
// packet (dhcplb put first), so the only issue left is the boxing.
package bug

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
			return make([]byte, packetBufSize)
		},
	}
	return s
}

func (s *Server) handleConnection() {
	buffer := s.bufPool.Get().([]byte)
	bytesRead, peer, err := s.conn.ReadFromUDP(buffer)
	if err != nil || bytesRead == 0 {
		s.bufPool.Put(buffer) // want `nonpointer`
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
			s.bufPool.Put(buffer) // want `nonpointer`
		}()

		s.handle(buffer[:bytesRead], peer)
	}()
}

func (s *Server) ListenAndServe() {
	for {
		s.handleConnection()
	}
}
