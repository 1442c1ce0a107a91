// Package bug reproduces the shape of felipejfc/udpx#3 (https://github.com/felipejfc/udpx/issues/3),
// fixed in commit d5e482e ("fix sync.Pool usage, fix #3"). The UDP proxy's read
// loops take a BufferSize buffer from the pool, read a datagram into it and
// shrink it to the datagram's length before queueing the packet. The writer
// goroutines forward the packet and put the buffer back still cut to that old
// length, so the next reader gets a buffer only as long as some earlier
// datagram and a larger packet no longer fits ("message larger than the
// internal message buffer").
// Check: noreset (at both Puts in the forwarding loops, which hand the
// buffer back without restoring its full length).
package bug

import (
	"log"
	"net"
	"sync"
)

type connection struct {
	udp *net.UDPConn
}

type packet struct {
	src  *net.UDPAddr
	data *[]byte
}

type Proxy struct {
	Debug                  bool
	BufferSize             int
	listenerConn           *net.UDPConn
	upstream               *net.UDPAddr
	connsMap               sync.Map
	closed                 bool
	clientMessageChannel   chan packet
	upstreamMessageChannel chan packet
	bufferPool             sync.Pool
}

func GetProxy(bufferSize int) *Proxy {
	return &Proxy{
		BufferSize:             bufferSize,
		clientMessageChannel:   make(chan packet),
		upstreamMessageChannel: make(chan packet),
		bufferPool: sync.Pool{New: func() interface{} {
			b := make([]byte, bufferSize)
			return &b
		}},
	}
}

func (p *Proxy) clientConnectionReadLoop(clientAddr *net.UDPAddr, upstreamConn *net.UDPConn) {
	clientAddrString := clientAddr.String()
	for {
		msg := p.bufferPool.Get().(*[]byte)
		size, _, err := upstreamConn.ReadFromUDP((*msg)[0:])
		if err != nil {
			upstreamConn.Close()
			p.connsMap.Delete(clientAddrString)
			return
		}
		*msg = (*msg)[:size]
		p.upstreamMessageChannel <- packet{src: clientAddr, data: msg}
	}
}

func (p *Proxy) handlerUpstreamPackets() {
	for pa := range p.upstreamMessageChannel {
		if p.Debug {
			log.Printf("forwarded data from upstream size=%d data=%s", len(*pa.data), string(*pa.data))
		}
		p.listenerConn.WriteTo(*pa.data, pa.src)
		p.bufferPool.Put(pa.data) // want `noreset`
	}
}

func (p *Proxy) handleClientPackets() {
	for pa := range p.clientMessageChannel {
		packetSourceString := pa.src.String()
		if p.Debug {
			log.Printf("packet received from %s size=%d", packetSourceString, len(*pa.data))
		}
		conn, found := p.connsMap.Load(packetSourceString)
		if !found {
			c, err := net.ListenUDP("udp", nil)
			if err != nil {
				log.Printf("udp proxy failed to dial: %v", err)
				return
			}
			p.connsMap.Store(packetSourceString, &connection{udp: c})
			c.WriteTo(*pa.data, p.upstream)
			go p.clientConnectionReadLoop(pa.src, c)
		} else {
			conn.(*connection).udp.WriteTo(*pa.data, p.upstream)
		}
		p.bufferPool.Put(pa.data) // want `noreset`
	}
}

func (p *Proxy) readLoop() {
	for !p.closed {
		msg := p.bufferPool.Get().(*[]byte)
		size, srcAddress, err := p.listenerConn.ReadFromUDP((*msg)[0:])
		if err != nil {
			log.Printf("error: %v", err)
			continue
		}
		*msg = (*msg)[:size]
		p.clientMessageChannel <- packet{src: srcAddress, data: msg}
	}
}
