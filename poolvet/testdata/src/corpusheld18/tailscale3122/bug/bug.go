// Package bug reproduces the shape of tailscale/tailscale#3122, fixed by
// commit c759fcc7d "wgengine/magicsock: fix data race with sync.Pool in
// error+logging path"
// (https://github.com/tailscale/tailscale/commit/c759fcc7d3ead9ddd188e980ee3c13e865fcd185,
// issue https://github.com/tailscale/tailscale/issues/3122). sendUDP filled a
// pooled *net.UDPAddr, wrote the packet to it and returned the write's
// result past a deferred Put. On failure the returned error (a *net.OpError)
// still points at that UDPAddr, which the caller then formats in a log line
// while another sender has taken the address from the pool and is rewriting it.
//
// Check: useafterput (the error result of a call given the pooled object
// keeps a pointer to it and is returned past the deferred Put; report at the
// `return`, the only place the alias leaves the function).
package bug

import (
	"log"
	"net"
	"net/netip"
	"sync"
)

var udpAddrPool = &sync.Pool{
	New: func() interface{} { return new(net.UDPAddr) },
}

// udpAddrAt fills ua with ipp, reusing ua's IP storage.
func udpAddrAt(ipp netip.AddrPort, ua *net.UDPAddr) *net.UDPAddr {
	ip := ipp.Addr()
	if ip.Is4() {
		a4 := ip.As4()
		ua.IP = append(ua.IP[:0], a4[:]...)
	} else {
		a16 := ip.As16()
		ua.IP = append(ua.IP[:0], a16[:]...)
	}
	ua.Port = int(ipp.Port())
	ua.Zone = ip.Zone()
	return ua
}

type Conn struct {
	pconn4 net.PacketConn
	pconn6 net.PacketConn
}

func (c *Conn) sendUDPStd(addr *net.UDPAddr, b []byte) (sent bool, err error) {
	switch {
	case addr.IP.To4() != nil:
		_, err = c.pconn4.WriteTo(b, addr)
	case len(addr.IP) == net.IPv6len:
		if c.pconn6 == nil {
			return false, nil
		}
		_, err = c.pconn6.WriteTo(b, addr)
	default:
		panic("bogus sendUDPStd addr type")
	}
	return err == nil, err
}

func (c *Conn) sendUDP(ipp netip.AddrPort, b []byte) (sent bool, err error) {
	ua := udpAddrPool.Get().(*net.UDPAddr)
	defer udpAddrPool.Put(ua)
	return c.sendUDPStd(udpAddrAt(ipp, ua), b) // want `useafterput`
}

func (c *Conn) sendAddr(addr netip.AddrPort, b []byte) (bool, error) {
	sent, err := c.sendUDP(addr, b)
	if err != nil {
		log.Printf("magicsock: send to %v failed: %v", addr, err)
	}
	return sent, err
}
