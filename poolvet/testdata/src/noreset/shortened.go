package noreset

import (
	"io"
	"net"
	"sync"
)

// Read buffers cut to a datagram's length and handed on, then put back by
// the receiver without their length restored: the next ReadFrom reads
// into a short buffer (traefik/traefik#12251).
var dgramPool = sync.Pool{New: func() any { b := make([]byte, 65535); return &b }}

func readDatagrams(conn net.PacketConn, out chan<- *[]byte) {
	for {
		bp := dgramPool.Get().(*[]byte)
		n, _, err := conn.ReadFrom(*bp)
		if err != nil {
			dgramPool.Put(bp)
			return
		}
		*bp = (*bp)[:n]
		out <- bp
	}
}

func consumeDatagrams(in <-chan *[]byte, handle func([]byte)) {
	for bp := range in {
		handle(*bp)
		dgramPool.Put(bp) // want `bp goes back to the pool still cut to the length of its last use \(line 22\)`
	}
}

// The receiver restores the length first: silent.
var dgramPool2 = sync.Pool{New: func() any { b := make([]byte, 65535); return &b }}

func readDatagrams2(conn net.PacketConn, out chan<- *[]byte) {
	for {
		bp := dgramPool2.Get().(*[]byte)
		n, _, err := conn.ReadFrom(*bp)
		if err != nil {
			dgramPool2.Put(bp)
			return
		}
		*bp = (*bp)[:n]
		out <- bp
	}
}

func consumeDatagrams2(in <-chan *[]byte, handle func([]byte)) {
	for bp := range in {
		handle(*bp)
		*bp = (*bp)[:cap(*bp)]
		dgramPool2.Put(bp)
	}
}

// The receiver restores the length to the constant New made it with:
// silent (sipcapture/heplify-server's hepWorker).
const dgramMax = 8192

var dgramPool3 = sync.Pool{New: func() any { b := make([]byte, dgramMax); return &b }}

func readDatagrams3(conn net.PacketConn, out chan<- *[]byte) {
	for {
		bp := dgramPool3.Get().(*[]byte)
		n, _, err := conn.ReadFrom(*bp)
		if err != nil {
			dgramPool3.Put(bp)
			return
		}
		*bp = (*bp)[:n]
		out <- bp
	}
}

func consumeDatagrams3(in <-chan *[]byte, handle func([]byte)) {
	for bp := range in {
		handle(*bp)
		*bp = (*bp)[:dgramMax]
		dgramPool3.Put(bp)
	}
}

// A buffer read into as (*b)[0:], cut to the datagram and put back by the
// forwarding goroutine (felipejfc/udpx#3).
var shUDPPool = sync.Pool{New: func() any {
	b := make([]byte, 2048)
	return &b
}}

type shPacket struct{ data *[]byte }

func shUDPReadLoop(r io.Reader, out chan<- shPacket) {
	for {
		b := shUDPPool.Get().(*[]byte)
		n, err := r.Read((*b)[0:])
		if err != nil {
			return
		}
		*b = (*b)[:n]
		out <- shPacket{data: b}
	}
}

func shUDPForward(w io.Writer, in <-chan shPacket) {
	for p := range in {
		w.Write(*p.data)
		shUDPPool.Put(p.data) // want `p.data goes back to the pool still cut to the length of its last use`
	}
}

// Silent: the reader restores the capacity after each Get, so a short
// buffer in the pool does no harm.
var shUDPPool2 = sync.Pool{New: func() any {
	b := make([]byte, 2048)
	return &b
}}

func shUDPReadLoop2(r io.Reader, out chan<- shPacket) {
	for {
		b := shUDPPool2.Get().(*[]byte)
		*b = (*b)[:cap(*b)]
		n, err := r.Read(*b)
		if err != nil {
			return
		}
		*b = (*b)[:n]
		out <- shPacket{data: b}
	}
}

func shUDPForward2(w io.Writer, in <-chan shPacket) {
	for p := range in {
		w.Write(*p.data)
		shUDPPool2.Put(p.data)
	}
}
