// Package bug reproduces the shape of AdguardTeam/dnsproxy#484
// (https://github.com/AdguardTeam/dnsproxy/pull/484): the DNS-over-QUIC
// upstream reads the response into a 64 KiB buffer taken from a sync.Pool,
// ignores how many bytes the single Read returned and unpacks the whole
// buffer after the 2-byte length prefix. On a partial read the tail of the
// buffer still holds the message of a previous query that used the same
// pooled buffer, so stale bytes are parsed as part of the new answer (rare
// "wrong domain" A/AAAA answers).
//
// Check: noreset (pooled buffer handed out still holding the previous
// message; the report belongs on the Unpack that consumes the stale bytes).
package bug

import (
	"errors"
	"fmt"
	"sync"
)

const maxMsgSize = 65535

// Msg is a stand-in for a parsed DNS message.
type Msg struct {
	Raw []byte
}

// Unpack copies the wire data into the message.
func (m *Msg) Unpack(b []byte) error {
	if len(b) < 12 {
		return errors.New("short message")
	}
	m.Raw = append(m.Raw[:0], b...)
	return nil
}

// quicStream is the part of a QUIC stream that readMsg needs.
type quicStream interface {
	Read(p []byte) (n int, err error)
	CancelRead(code uint64)
}

type dnsOverQUIC struct {
	addr        string
	bytesPool   *sync.Pool
	bytesPoolMu sync.Mutex
}

func (p *dnsOverQUIC) getBytesPool() *sync.Pool {
	p.bytesPoolMu.Lock()
	defer p.bytesPoolMu.Unlock()

	if p.bytesPool == nil {
		p.bytesPool = &sync.Pool{
			New: func() interface{} {
				b := make([]byte, maxMsgSize)
				return &b
			},
		}
	}
	return p.bytesPool
}

func (p *dnsOverQUIC) readMsg(stream quicStream) (m *Msg, err error) {
	pool := p.getBytesPool()
	bufPtr := pool.Get().(*[]byte)

	defer pool.Put(bufPtr)

	respBuf := *bufPtr
	n, err := stream.Read(respBuf)
	if err != nil && n == 0 {
		return nil, fmt.Errorf("reading response from %s: %w", p.addr, err)
	}

	stream.CancelRead(0)

	// The length prefix is skipped but not honoured: everything up to the
	// end of the pooled buffer is parsed, including leftovers.
	m = new(Msg)
	err = m.Unpack(respBuf[2:]) // want `noreset`
	if err != nil {
		return nil, fmt.Errorf("unpacking response from %s: %w", p.addr, err)
	}

	return m, nil
}
