// Package bug reproduces the shape of SagerNet/sing-box commit 7daf2d17
// (https://github.com/SagerNet/sing-box/commit/7daf2d171613e0454bbcd3593114dfa51f946e06,
// "Fix hijack-dns"). In sing, a PacketConn's WritePacket takes ownership of the
// pooled *buf.Buffer it is given and releases it back to the buffer pool once
// the packet is written. exchangeDNSPacket, which answers hijacked DNS queries,
// builds the response in a pooled buffer, hands it to conn.WritePacket and then
// calls responseBuffer.Release() itself as well, so every answered query puts
// the response buffer back twice and later packets can share one buffer. The
// fix deletes the caller's Release.
// Check: doubleput (the caller's responseBuffer.Release() after WritePacket
// already released it).
package bug

import (
	"context"
	"errors"
	"net"
	"sync"
)

const bufferSize = 2048

// Buffer is a pooled packet buffer.
type Buffer struct {
	data  []byte
	start int
	end   int
}

var bufferPool = sync.Pool{
	New: func() any {
		return &Buffer{data: make([]byte, bufferSize)}
	},
}

// NewBuffer takes an empty buffer from the pool.
func NewBuffer() *Buffer {
	b := bufferPool.Get().(*Buffer)
	b.start, b.end = 0, 0
	return b
}

// Release gives the buffer back to the pool.
func (b *Buffer) Release() {
	if b == nil || len(b.data) != bufferSize {
		return
	}
	b.start, b.end = 0, 0
	bufferPool.Put(b)
}

func (b *Buffer) Bytes() []byte { return b.data[b.start:b.end] }

func (b *Buffer) Write(p []byte) (int, error) {
	n := copy(b.data[b.end:], p)
	b.end += n
	if n < len(p) {
		return n, errors.New("buffer full")
	}
	return n, nil
}

// PacketConn writes packets; WritePacket always releases the buffer it is given.
type PacketConn interface {
	WritePacket(buffer *Buffer, destination net.Addr) error
}

type udpPacketConn struct {
	conn net.PacketConn
}

func (c *udpPacketConn) WritePacket(buffer *Buffer, destination net.Addr) error {
	defer buffer.Release()
	_, err := c.conn.WriteTo(buffer.Bytes(), destination)
	return err
}

// Router answers DNS messages.
type Router interface {
	Exchange(ctx context.Context, query []byte) ([]byte, error)
}

var errTruncated = errors.New("dns: response does not fit")

func truncateDNSMessage(response []byte, maxLen int) (*Buffer, error) {
	if len(response) > maxLen {
		return nil, errTruncated
	}
	buffer := NewBuffer()
	if _, err := buffer.Write(response); err != nil {
		buffer.Release()
		return nil, err
	}
	return buffer, nil
}

// ExchangeDNSPacket answers one hijacked DNS query and reports errors.
func ExchangeDNSPacket(ctx context.Context, router Router, conn PacketConn, buffer *Buffer, destination net.Addr, logf func(error)) {
	err := exchangeDNSPacket(ctx, router, conn, buffer, destination)
	if err != nil && !errors.Is(err, context.Canceled) {
		logf(err)
	}
}

func exchangeDNSPacket(ctx context.Context, router Router, conn PacketConn, buffer *Buffer, destination net.Addr) error {
	query := append([]byte(nil), buffer.Bytes()...)
	buffer.Release()
	if len(query) == 0 {
		return errors.New("unpack request: empty message")
	}
	response, err := router.Exchange(ctx, query)
	if err != nil {
		return err
	}
	responseBuffer, err := truncateDNSMessage(response, 1024)
	if err != nil {
		return err
	}
	err = conn.WritePacket(responseBuffer, destination)
	responseBuffer.Release() // want `doubleput`
	return err
}
