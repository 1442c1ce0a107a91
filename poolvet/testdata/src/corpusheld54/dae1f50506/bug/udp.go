// Source: https://github.com/daeuniverse/dae/commit/1f50506b10ac6f2b4ae6e320e9b69e7beb81a604
// ("fix: potential free packet buffers", a commit of
// https://github.com/daeuniverse/dae/pull/301, squash-merged as 25c047a7;
// control/udp.go,
// control/packet_sniffer_pool.go, component/sniffing/sniffer.go).
//
// Bug: a packet sniffer accumulates the first UDP packets of a flow in a
// pooled buffer (pool.GetBuffer); Sniffer.data holds sub-slices of
// s.buf.Bytes(). Once sniffing is done, handlePkt called
// DefaultPacketSnifferPool.Remove(key, sniffer), which closes the sniffer
// and returns s.buf to the buffer pool, and only afterwards took
// sniffer.Data() and handed those sub-slices to new goroutines
// (go c.handlePkt(..., d, ...)) to re-handle the buffered packets. The
// goroutines read packet bytes from a buffer that was already back in the
// pool and could be reused by another sniffer.
//
// Fix: the Remove is deferred (so it runs after the re-handle defer), and
// each packet is copied into a fresh pool.Get buffer before it is handed to
// the goroutine.
//
// Check: useafterput (at the go c.handlePkt(lConn, d, ...) statement: d is a
// sub-slice of the sniffer's buffer that Remove -> Close already put back)
package bug

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"time"
)

// ---- softwind/pool ----

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func GetBuffer() *bytes.Buffer {
	buf := bufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

func PutBuffer(buf *bytes.Buffer) {
	bufferPool.Put(buf)
}

// Get stands in for softwind's size-classed byte-slice pool.
func Get(size int) []byte {
	return make([]byte, size)
}

// ---- component/sniffing ----

var ErrNeedMore = errors.New("need more")

type Sniffer struct {
	buf      *bytes.Buffer
	data     [][]byte
	needMore bool
	ctx      context.Context
	cancel   func()
}

func NewPacketSniffer(data []byte, timeout time.Duration) *Sniffer {
	buffer := GetBuffer()
	buffer.Write(data)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	s := &Sniffer{
		buf:    buffer,
		data:   [][]byte{buffer.Bytes()},
		ctx:    ctx,
		cancel: cancel,
	}
	return s
}

func (s *Sniffer) AppendData(data []byte) {
	s.needMore = false
	ori := s.buf.Len()
	s.buf.Write(data)
	s.data = append(s.data, s.buf.Bytes()[ori:])
}

func (s *Sniffer) Data() [][]byte {
	return s.data
}

func (s *Sniffer) NeedMore() bool {
	return s.needMore
}

func (s *Sniffer) SniffUdp() (d string, err error) {
	if len(s.data) < 3 {
		s.needMore = true
		return "", ErrNeedMore
	}
	return "example.com", nil
}

func (s *Sniffer) Close() (err error) {
	select {
	case <-s.ctx.Done():
	default:
		s.cancel()
		if s.buf.Len() == 0 {
			PutBuffer(s.buf)
		}
	}
	return nil
}

// ---- control/packet_sniffer_pool.go ----

type PacketSniffer struct {
	*Sniffer
	Mu sync.Mutex
}

type PacketSnifferKey struct {
	LAddr netip.AddrPort
	RAddr netip.AddrPort
}

type PacketSnifferPool struct {
	pool sync.Map
}

var DefaultPacketSnifferPool = &PacketSnifferPool{}

func (p *PacketSnifferPool) Remove(key PacketSnifferKey, sniffer *PacketSniffer) (err error) {
	if ue, ok := p.pool.LoadAndDelete(key); ok {
		sniffer.Close()
		if ue != sniffer {
			return errors.New("target udp endpoint is not in the pool")
		}
	}
	return nil
}

func (p *PacketSnifferPool) Get(key PacketSnifferKey) *PacketSniffer {
	_qs, ok := p.pool.Load(key)
	if !ok {
		return nil
	}
	return _qs.(*PacketSniffer)
}

func (p *PacketSnifferPool) GetOrCreate(key PacketSnifferKey) *PacketSniffer {
	qs := &PacketSniffer{Sniffer: NewPacketSniffer(nil, 3*time.Second)}
	actual, _ := p.pool.LoadOrStore(key, qs)
	return actual.(*PacketSniffer)
}

// ---- control/udp.go ----

type ControlPlane struct{}

func (c *ControlPlane) handlePkt(lConn *net.UDPConn, data []byte, src, realDst netip.AddrPort, skipSniffing bool) (err error) {
	var domain string
	if !skipSniffing {
		key := PacketSnifferKey{
			LAddr: src,
			RAddr: realDst,
		}
		_sniffer := DefaultPacketSnifferPool.GetOrCreate(key)
		_sniffer.Mu.Lock()
		// Re-get sniffer from pool to confirm the transaction is not done.
		sniffer := DefaultPacketSnifferPool.Get(key)
		if _sniffer == sniffer {
			sniffer.AppendData(data)
			domain, err = sniffer.SniffUdp()
			if err != nil && !errors.Is(err, ErrNeedMore) {
				sniffer.Mu.Unlock()
				return err
			}
			if sniffer.NeedMore() {
				sniffer.Mu.Unlock()
				return nil
			}
			DefaultPacketSnifferPool.Remove(key, sniffer)
			// Re-handlePkt after self func.
			toRehandle := sniffer.Data()[1 : len(sniffer.Data())-1] // Skip the first empty and the last (self).
			sniffer.Mu.Unlock()
			if len(toRehandle) > 0 {
				defer func() {
					if err == nil {
						for _, d := range toRehandle {
							go c.handlePkt(lConn, d, src, realDst, true) // want `useafterput`
						}
					}
				}()
			}
		} else {
			_sniffer.Mu.Unlock()
		}
	}
	_ = domain
	if lConn != nil {
		_, err = lConn.WriteToUDPAddrPort(data, realDst)
	}
	return err
}
