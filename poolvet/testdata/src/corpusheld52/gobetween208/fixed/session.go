// Source: https://github.com/yyyar/gobetween/issues/208
// Fix commit: https://github.com/yyyar/gobetween/commit/303d4967ab6a6980bb11bec59b951e374237a315
// ("Fixed udp session bufpool #208"), server/udp/session/session.go.
//
// Bug: the UDP session copies each client packet into a 65507-byte buffer
// taken from bufPool and queues dup[0:n] on the out channel. The sender
// goroutine writes it to the backend and puts that re-sliced buffer back
// into the pool (also when draining the channel on close). The pool then
// holds buffers whose length is the size of their last packet, so the next
// Session.Write gets a short buffer and copy() silently truncates larger
// packets.
// Fix: queue a packet{payload, len} that keeps the full buffer; write
// payload[0:len] and put the full-length payload back (packet.release).
//
// Check: noreset (the Puts in the sender goroutine return the buffer still
// re-sliced to the last user's packet length, which the next Get sees)
// Fixed twin: the project's fix (packet{payload, len} and packet.release).
package fixed

import (
	"fmt"
	"io"
	"log"
	"sync"
	"sync/atomic"
	"time"
)

const (
	UDP_PACKET_SIZE   = 65507
	MAX_PACKETS_QUEUE = 10000
)

var bufPool = sync.Pool{
	New: func() interface{} {
		return make([]byte, UDP_PACKET_SIZE)
	},
}

type Backend struct {
	Address string
}

type Scheduler struct {
	tx          uint64
	connections int64
}

func (s *Scheduler) IncrementTx(b Backend, n uint) { atomic.AddUint64(&s.tx, uint64(n)) }
func (s *Scheduler) IncrementConnection(b Backend) { atomic.AddInt64(&s.connections, 1) }
func (s *Scheduler) DecrementConnection(b Backend) { atomic.AddInt64(&s.connections, -1) }

type Config struct {
	MaxRequests       uint64
	ClientIdleTimeout time.Duration
}

type packet struct {
	// pointer to object that has to be returned to buf pool
	payload []byte
	// length of the usable part of buffer
	len int
}

func (p packet) buf() []byte {
	if p.payload == nil {
		return nil
	}

	return p.payload[0:p.len]
}

func (p packet) release() {
	if p.payload == nil {
		return
	}
	bufPool.Put(p.payload)
}

type Session struct {
	//counters
	sent uint64

	//session config
	cfg Config

	//connection to backend
	conn    io.WriteCloser
	backend Backend

	//communication
	out     chan packet
	stopC   chan struct{}
	stopped uint32

	//scheduler
	scheduler *Scheduler
}

func NewSession(conn io.WriteCloser, backend Backend, scheduler *Scheduler, cfg Config) *Session {

	scheduler.IncrementConnection(backend)
	s := &Session{
		cfg:       cfg,
		conn:      conn,
		backend:   backend,
		scheduler: scheduler,
		out:       make(chan packet, MAX_PACKETS_QUEUE),
		stopC:     make(chan struct{}, 1),
	}

	go func() {

		var t *time.Timer
		var tC <-chan time.Time

		if cfg.ClientIdleTimeout > 0 {
			t = time.NewTimer(cfg.ClientIdleTimeout)
			tC = t.C
		}

		for {
			select {

			case <-tC:
				s.Close()
			case pkt := <-s.out:
				if t != nil {
					if !t.Stop() {
						<-t.C
					}
					t.Reset(cfg.ClientIdleTimeout)
				}

				if pkt.payload == nil {
					panic("Program error, output channel should not be closed here")
				}

				n, err := s.conn.Write(pkt.buf())
				pkt.release()

				if err != nil {
					log.Printf("Could not write data to udp connection: %v", err)
					break
				}

				if n != pkt.len {
					log.Printf("Short write error: should write %d bytes, but %d written", pkt.len, n)
					break
				}

				s.scheduler.IncrementTx(s.backend, uint(n))

				if s.cfg.MaxRequests > 0 && atomic.AddUint64(&s.sent, 1) > s.cfg.MaxRequests {
					log.Printf("Restricted to send more UDP packets")
					break
				}
			case <-s.stopC:
				atomic.StoreUint32(&s.stopped, 1)
				if t != nil {
					t.Stop()
				}
				s.conn.Close()
				s.scheduler.DecrementConnection(s.backend)
				// drain output packets channel and free buffers
				for {
					select {
					case pkt := <-s.out:
						pkt.release()
					default:
						return
					}
				}

			}
		}

	}()

	return s
}

func (s *Session) Write(buf []byte) error {
	if atomic.LoadUint32(&s.stopped) == 1 {
		return fmt.Errorf("Closed session")
	}

	dup := bufPool.Get().([]byte)
	n := copy(dup, buf)

	select {
	case s.out <- packet{dup, n}:
	default:
		bufPool.Put(dup)
	}

	return nil
}

func (s *Session) IsDone() bool {
	return atomic.LoadUint32(&s.stopped) == 1
}

func (s *Session) Close() {
	select {
	case s.stopC <- struct{}{}:
	default:
	}
}
