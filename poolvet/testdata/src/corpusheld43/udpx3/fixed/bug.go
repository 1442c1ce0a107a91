// Package bug is the fixed twin of felipejfc/udpx#3 (https://github.com/felipejfc/udpx/issues/3),
// following commit d5e482e: the packet carries the whole pooled buffer plus
// the datagram length in a separate field, every user slices data[:dataLen],
// and the buffer goes back to the pool at its full length.
// Check: noreset (none expected here).
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
	src     *net.UDPAddr
	data    *[]byte
	dataLen int
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
		p.upstreamMessageChannel <- packet{src: clientAddr, data: msg, dataLen: size}
	}
}

func (p *Proxy) handlerUpstreamPackets() {
	for pa := range p.upstreamMessageChannel {
		if p.Debug {
			log.Printf("forwarded data from upstream size=%d data=%s", pa.dataLen, string((*pa.data)[:pa.dataLen]))
		}
		p.listenerConn.WriteTo((*pa.data)[:pa.dataLen], pa.src)
		p.bufferPool.Put(pa.data)
	}
}

func (p *Proxy) handleClientPackets() {
	for pa := range p.clientMessageChannel {
		packetSourceString := pa.src.String()
		if p.Debug {
			log.Printf("packet received from %s size=%d", packetSourceString, pa.dataLen)
		}
		conn, found := p.connsMap.Load(packetSourceString)
		if !found {
			c, err := net.ListenUDP("udp", nil)
			if err != nil {
				log.Printf("udp proxy failed to dial: %v", err)
				return
			}
			p.connsMap.Store(packetSourceString, &connection{udp: c})
			c.WriteTo((*pa.data)[:pa.dataLen], p.upstream)
			go p.clientConnectionReadLoop(pa.src, c)
		} else {
			conn.(*connection).udp.WriteTo((*pa.data)[:pa.dataLen], p.upstream)
		}
		p.bufferPool.Put(pa.data)
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
		p.clientMessageChannel <- packet{src: srcAddress, data: msg, dataLen: size}
	}
}
