// Package bug reproduces the shape of AdguardTeam/dnsproxy#484
// (https://github.com/AdguardTeam/dnsproxy/pull/484), fixed: the length
// prefix is read in full, validated, and exactly that many bytes are read
// into the pooled buffer and unpacked, so no leftover bytes of an earlier
// message are ever parsed.
//
// Check: noreset (none expected in the fixed twin).
package bug

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
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

	var lenBuf [2]byte
	if _, err = io.ReadFull(stream, lenBuf[:]); err != nil {
		return nil, fmt.Errorf("reading response length from %s: %w", p.addr, err)
	}

	msgLen := int(binary.BigEndian.Uint16(lenBuf[:]))
	if msgLen == 0 {
		return nil, fmt.Errorf("empty response from %s", p.addr)
	}

	respBuf := (*bufPtr)[:msgLen]
	if _, err = io.ReadFull(stream, respBuf); err != nil {
		return nil, fmt.Errorf("reading response from %s: %w", p.addr, err)
	}

	stream.CancelRead(0)

	m = new(Msg)
	err = m.Unpack(respBuf)
	if err != nil {
		return nil, fmt.Errorf("unpacking response from %s: %w", p.addr, err)
	}

	return m, nil
}
