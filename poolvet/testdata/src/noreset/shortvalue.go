package noreset

import "sync"

// A pool of []byte packet buffers whose users copy into what they get by
// its length: a buffer put back cut to its last packet's length (directly,
// or after a trip through a channel that carries such cuts) makes the next
// copy stop short (yyyar/gobetween#208).

var udpBufs = sync.Pool{New: func() any { return make([]byte, 2048) }}

type udpSession struct {
	out chan []byte
}

func (s *udpSession) Write(pkt []byte) {
	dup := udpBufs.Get().([]byte)
	n := copy(dup, pkt)
	select {
	case s.out <- dup[0:n]:
	default:
		udpBufs.Put(dup)
	}
}

func (s *udpSession) sendLoop(send func([]byte)) {
	for buf := range s.out {
		send(buf)
		udpBufs.Put(buf) // want `buf goes back to the pool cut to the length of its last use \(line 20\)`
	}
}

func (s *udpSession) drain() {
	for {
		select {
		case buf := <-s.out:
			udpBufs.Put(buf) // want `buf goes back to the pool cut to the length of its last use`
		default:
			return
		}
	}
}

func echoCut(pkt []byte, send func([]byte)) {
	dup := udpBufs.Get().([]byte)
	n := copy(dup, pkt)
	send(dup[:n])
	udpBufs.Put(dup[:n]) // want `goes back to the pool cut to the length of its last use`
}

// The fix: the whole buffer goes back.
func echoWhole(pkt []byte, send func([]byte)) {
	dup := udpBufs.Get().([]byte)
	n := copy(dup, pkt)
	send(dup[:n])
	udpBufs.Put(dup[:cap(dup)])
}

// Restored to a configured size before the Put: not a cut (miekg/dns).
type udpServer struct{ size int }

func (s *udpServer) serveOne(read func([]byte) int, handle func([]byte)) {
	m := udpBufs.Get().([]byte)
	n := read(m)
	handle(m[:n])
	udpBufs.Put(m[:s.size])
}
