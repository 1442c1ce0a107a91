// Package bug reproduces the shape of SagerNet/sing commit 4e04bbd
// (https://github.com/SagerNet/sing/commit/4e04bbd3d84d422cbd28a089523e76a11e050661,
// "Fix udpnat"). Service.NewContextPacket receives a pooled *buf.Buffer and
// starts with defer buffer.Release(), but then hands the very same buffer to
// the NAT connection: it is queued on conn.data and the reader side
// (conn.ReadPacket) releases it after copying it out. When the NAT entry is
// already closed, NewContextPacket calls itself with the same buffer, whose own
// deferred Release runs before the outer one. Either way the buffer goes back to
// the pool twice (and the queued packet can be read after it was recycled). The
// fix drops the deferred Release: ownership of the buffer moves with the packet.
// Check: doubleput (the deferred Release in NewContextPacket).
package bug

import (
	"context"
	"io"
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

// ReadFrom copies the unread bytes of src into b.
func (b *Buffer) ReadFrom(src *Buffer) (int, error) {
	n := copy(b.data[b.end:], src.Bytes())
	b.end += n
	return n, nil
}

// PacketWriter sends packets back to the client.
type PacketWriter interface {
	WritePacket(buffer *Buffer, destination net.Addr) error
}

// Handler serves one NAT connection.
type Handler interface {
	NewPacketConnection(ctx context.Context, conn *conn) error
	HandleError(err error)
}

// Metadata describes one packet.
type Metadata struct {
	Source      net.Addr
	Destination net.Addr
}

// Service maps a client key to a NAT connection.
type Service[K comparable] struct {
	mu      sync.Mutex
	nat     map[K]*conn
	handler Handler
}

func New[K comparable](handler Handler) *Service[K] {
	return &Service[K]{nat: make(map[K]*conn), handler: handler}
}

func (s *Service[K]) loadOrStore(key K, create func() *conn) (*conn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.nat[key]; ok {
		return c, true
	}
	c := create()
	s.nat[key] = c
	return c, false
}

func (s *Service[K]) delete(key K) {
	s.mu.Lock()
	delete(s.nat, key)
	s.mu.Unlock()
}

func (s *Service[K]) NewPacket(ctx context.Context, key K, writer func() PacketWriter, buffer *Buffer, metadata Metadata) {
	s.NewContextPacket(ctx, key, func() (context.Context, PacketWriter) { return ctx, writer() }, buffer, metadata)
}

func (s *Service[K]) NewContextPacket(ctx context.Context, key K, init func() (context.Context, PacketWriter), buffer *Buffer, metadata Metadata) {
	defer buffer.Release() // want `doubleput`

	c, loaded := s.loadOrStore(key, func() *conn {
		c := &conn{
			data:       make(chan packet, 64),
			localAddr:  metadata.Source,
			remoteAddr: metadata.Destination,
		}
		c.ctx, c.cancel = context.WithCancel(ctx)
		return c
	})
	if !loaded {
		ctx, c.source = init()
		go func() {
			err := s.handler.NewPacketConnection(ctx, c)
			if err != nil {
				s.handler.HandleError(err)
			}
			c.Close()
			s.delete(key)
		}()
	}
	if c.ctx.Err() != nil {
		s.delete(key)
		if ctx.Err() == nil {
			s.NewContextPacket(ctx, key, init, buffer, metadata)
		}
		return
	}
	c.data <- packet{
		data:        buffer,
		destination: metadata.Destination,
	}
}

type packet struct {
	data        *Buffer
	destination net.Addr
}

type conn struct {
	ctx        context.Context
	cancel     context.CancelFunc
	data       chan packet
	localAddr  net.Addr
	remoteAddr net.Addr
	source     PacketWriter
}

// ReadPacket copies the next queued packet into buffer and releases it.
func (c *conn) ReadPacket(buffer *Buffer) (net.Addr, error) {
	select {
	case p := <-c.data:
		_, err := buffer.ReadFrom(p.data)
		p.data.Release()
		return p.destination, err
	case <-c.ctx.Done():
		return nil, io.ErrClosedPipe
	}
}

func (c *conn) WritePacket(buffer *Buffer, destination net.Addr) error {
	return c.source.WritePacket(buffer, destination)
}

func (c *conn) Close() error {
	c.cancel()
	return nil
}
