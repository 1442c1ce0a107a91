// Source: https://github.com/hanselime/paqet/pull/97
// (commit 235f84d2a1f5872676878a3d2e92ad103fad3073, "internal/pkg/buffer:
// replace sync.Pool with direct buffer allocation").
//
// Bug: the SOCKS5 UDP handler took a *[]byte from buffer.UPool and
// deferred buffer.UPool.Put(bufp). For a new UDP stream it then started a
// goroutine that keeps reading stream responses into buf (the pooled
// slice) for the lifetime of the stream. UDPHandle returns right after
// starting the goroutine, so the deferred Put hands the buffer back to the
// pool while the goroutine is still reading into it; the next UDPHandle or
// forwarder call that gets the same buffer races with it and datagrams are
// corrupted.
//
// Fix: the pool was removed; the handler allocates its own buffer with
// make([]byte, buffer.UPool) so the goroutine owns it.
//
// Check: useafterput (at the go statement: the goroutine captures buf, the
// pooled slice, and outlives UDPHandle, whose deferred Put returns it to
// the pool)
package bug

import (
	"context"
	"log"
	"net"
	"sync"
	"time"
)

// internal/pkg/buffer

var (
	TPool sync.Pool
	UPool sync.Pool
)

func Initialize(tPool, uPool int) {
	TPool = sync.Pool{
		New: func() any {
			b := make([]byte, tPool)
			return &b
		},
	}
	UPool = sync.Pool{
		New: func() any {
			b := make([]byte, uPool)
			return &b
		},
	}
}

// trimmed tnet / client / socks5 types

type Strm interface {
	Read(p []byte) (int, error)
	Write(p []byte) (int, error)
	SetDeadline(t time.Time) error
	SetWriteDeadline(t time.Time) error
	SID() int
}

type Client interface {
	UDP(laddr, raddr string) (Strm, bool, uint64, error)
	CloseUDP(k uint64)
}

type Datagram struct {
	Atyp    byte
	DstAddr []byte
	DstPort []byte
	Data    []byte
	addr    string
}

func (d *Datagram) Address() string { return d.addr }

func (d *Datagram) Bytes() []byte {
	b := []byte{0x00, 0x00, 0x00, d.Atyp}
	b = append(b, d.DstAddr...)
	b = append(b, d.DstPort...)
	return append(b, d.Data...)
}

func NewDatagram(atyp byte, dstaddr, dstport, data []byte) *Datagram {
	return &Datagram{Atyp: atyp, DstAddr: dstaddr, DstPort: dstport, Data: data}
}

type Server struct {
	UDPConn *net.UDPConn
}

type Handler struct {
	client Client
	ctx    context.Context
}

func (h *Handler) UDPHandle(server *Server, addr *net.UDPAddr, d *Datagram) error {
	bufp := UPool.Get().(*[]byte)
	defer UPool.Put(bufp)
	buf := *bufp
	strm, new, k, err := h.client.UDP(addr.String(), d.Address())
	if err != nil {
		log.Printf("SOCKS5 failed to establish UDP stream for %s -> %s: %v", addr, d.Address(), err)
		return err
	}
	strm.SetWriteDeadline(time.Now().Add(8 * time.Second))
	_, err = strm.Write(d.Data)
	strm.SetWriteDeadline(time.Time{})
	if err != nil {
		log.Printf("SOCKS5 failed to forward %d bytes from %s -> %s: %v", len(d.Data), addr, d.Address(), err)
		h.client.CloseUDP(k)
		return err
	}

	if new {
		log.Printf("SOCKS5 accepted UDP connection %s -> %s", addr, d.Address())
		go func() { // want `useafterput`
			defer func() {
				log.Printf("SOCKS5 UDP stream %d closed for %s -> %s", strm.SID(), addr, d.Address())
				h.client.CloseUDP(k)
			}()
			for {
				select {
				case <-h.ctx.Done():
					return
				default:
					strm.SetDeadline(time.Now().Add(8 * time.Second))
					n, err := strm.Read(buf)
					strm.SetDeadline(time.Time{})
					if err != nil {
						log.Printf("SOCKS5 UDP stream %d read error for %s -> %s: %v", strm.SID(), addr, d.Address(), err)
						return
					}
					dd := NewDatagram(d.Atyp, d.DstAddr, d.DstPort, buf[:n])
					_, err = server.UDPConn.WriteToUDP(dd.Bytes(), addr)
					if err != nil {
						log.Printf("SOCKS5 failed to write UDP response %d bytes to %s: %v", len(dd.Bytes()), addr, err)
						return
					}
				}
			}
		}()
	}
	return nil
}
