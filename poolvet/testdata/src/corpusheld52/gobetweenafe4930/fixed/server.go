// Source: https://github.com/yyyar/gobetween/commit/afe493018f4a28b9b6ea6386ff4bb016fa97ac15
// ("fix defer sync.Pool.Put()", part of the sync.Pool work for
// https://github.com/yyyar/gobetween/issues/180), src/server/udp/server.go.
//
// Bug: the UDP load balancer copies each packet into a *bytes.Buffer from
// Server.bufPool and calls proxy() / fireAndForget(). Both functions
// `defer this.bufPool.Put(buf)` and start a goroutine that sends
// buf.Bytes() to the backend session/connection, then return at once. The
// deferred Put returns the buffer to the pool while the goroutine still has
// to read it; the read loop's next Get + Reset + Write overwrites the packet
// that the goroutine is about to send.
// Fix: move `defer this.bufPool.Put(buf)` into the goroutines, after which
// the buffer is no longer used.
//
// Check: useafterput (both deferred Puts return buf while the goroutine
// started in the same function still uses buf.Bytes())
package fixed

import (
	"bytes"
	"fmt"
	"log"
	"net"
	"sync"
	"sync/atomic"
)

const UDP_PACKET_SIZE = 65507

type Backend struct {
	Host string
	Port string
}

type Scheduler struct {
	tx uint64
}

func (s *Scheduler) TakeBackend(clientAddr *net.UDPAddr) (*Backend, error) {
	return &Backend{Host: "127.0.0.1", Port: "53"}, nil
}

func (s *Scheduler) IncrementTx(b Backend, n uint) { atomic.AddUint64(&s.tx, uint64(n)) }

type Config struct {
	MaxRequests uint64
}

type Session struct {
	conn *net.UDPConn
	done uint32
}

func (s *Session) IsDone() bool { return atomic.LoadUint32(&s.done) == 1 }
func (s *Session) CloseConn()   { s.conn.Close() }

func (s *Session) Write(buf []byte) error {
	_, err := s.conn.Write(buf)
	return err
}

type Server struct {
	serverConn *net.UDPConn
	scheduler  *Scheduler
	stopped    uint32

	mu       sync.Mutex
	sessions map[string]*Session

	bufPool sync.Pool
}

func New() *Server {
	return &Server{
		scheduler: &Scheduler{},
		sessions:  make(map[string]*Session),
		bufPool: sync.Pool{
			New: func() interface{} {
				return bytes.NewBuffer(make([]byte, 0, UDP_PACKET_SIZE))
			},
		},
	}
}

func (this *Server) serve(cfg Config) {
	// Main loop goroutine - reads incoming data and decides what to do
	go func() {

		buf := make([]byte, UDP_PACKET_SIZE)
		for {
			n, clientAddr, err := this.serverConn.ReadFromUDP(buf)

			if err != nil {
				if atomic.LoadUint32(&this.stopped) == 1 {
					return
				}

				log.Print("Failed to read from UDP: ", err)

				continue
			}

			b := this.bufPool.Get().(*bytes.Buffer)
			b.Reset()
			b.Write(buf[:n])

			//special case for single request mode
			if cfg.MaxRequests == 1 {
				err := this.fireAndForget(clientAddr, b)

				if err != nil {
					log.Printf("Error sending data to backend: %v ", err)
				}

				continue
			}

			err = this.proxy(cfg, clientAddr, b)

			if err != nil {
				log.Printf("Failed to proxy packet from client %v: %v", clientAddr, err)
				continue
			}

		}
	}()
}

func (this *Server) electAndConnect(clientAddr *net.UDPAddr) (*net.UDPConn, *Backend, error) {
	backend, err := this.scheduler.TakeBackend(clientAddr)
	if err != nil {
		return nil, nil, fmt.Errorf("Could not elect backend for clientAddr %v: %v", clientAddr, err)
	}

	addrStr := backend.Host + ":" + backend.Port

	addr, err := net.ResolveUDPAddr("udp", addrStr)
	if err != nil {
		return nil, nil, fmt.Errorf("Could not resolve udp address %s: %v", addrStr, err)
	}

	conn, err := net.DialUDP("udp", nil, addr)
	if err != nil {
		return nil, nil, fmt.Errorf("Could not dial UDP addr %v: %v", addr, err)
	}

	return conn, backend, nil
}

/**
 * Get the session and send data via chosen session
 */
func (this *Server) proxy(cfg Config, clientAddr *net.UDPAddr, buf *bytes.Buffer) error {

	getOrCreateSession := func() (*Session, error) {
		key := clientAddr.String()

		this.mu.Lock()
		defer this.mu.Unlock()

		s, ok := this.sessions[key]

		//session exists and is not done yet
		if ok && !s.IsDone() {
			return s, nil
		}

		//session exists but should be replaced with a new one
		if ok {
			delete(this.sessions, key)
			s.CloseConn()
		}

		conn, _, err := this.electAndConnect(clientAddr)
		if err != nil {
			return nil, fmt.Errorf("Could not elect/connect to backend: %v", err)
		}

		s = &Session{conn: conn}
		this.sessions[key] = s

		return s, nil
	}

	go func() {

		defer this.bufPool.Put(buf)

		s, err := getOrCreateSession()

		if err != nil {
			log.Print(err)
			return
		}

		err = s.Write(buf.Bytes())
		if err != nil {
			log.Printf("Could not write data to UDP 'session' %v: %v", s, err)
			return
		}

	}()

	return nil

}

/**
 * Omit creating session, just send one packet of data
 */
func (this *Server) fireAndForget(clientAddr *net.UDPAddr, buf *bytes.Buffer) error {

	conn, backend, err := this.electAndConnect(clientAddr)
	if err != nil {
		return fmt.Errorf("Could not elect or connect to backend: %v", err)
	}

	go func() {

		defer this.bufPool.Put(buf)

		n, err := conn.Write(buf.Bytes())
		if err != nil {
			log.Printf("Could not write data to %v: %v", clientAddr, err)
			return
		}

		if n != buf.Len() {
			log.Printf("Failed to send full packet, expected size %d, actually sent %d", buf.Len(), n)
			return
		}

		this.scheduler.IncrementTx(*backend, uint(n))
	}()

	return nil

}
