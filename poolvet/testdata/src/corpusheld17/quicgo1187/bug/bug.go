// Package bug reproduces the shape of quic-go/quic-go#1187
// (https://github.com/quic-go/quic-go/pull/1187, "use pointer to byte slices
// in the buffer pool"): the packet buffer pool stored []byte values, so
// putPacketBuffer boxed a slice header on every packet, which staticcheck
// reports as SA6002; the PR switched the pool to *[]byte.
//
// Check: nonpointer (a re-sliced []byte is put into a sync.Pool).
package bug

import "sync"

const MaxReceivePacketSize = 1452

var bufferPool sync.Pool

func getPacketBuffer() []byte {
	return bufferPool.Get().([]byte)
}

func putPacketBuffer(buf []byte) {
	if cap(buf) != MaxReceivePacketSize {
		panic("putPacketBuffer called with packet of wrong size!")
	}
	bufferPool.Put(buf[:0]) // want `nonpointer`
}

func init() {
	bufferPool.New = func() any {
		return make([]byte, 0, MaxReceivePacketSize)
	}
}

type packetConn interface {
	ReadFrom(p []byte) (int, string, error)
}

type server struct {
	conn     packetConn
	received int
}

func (s *server) handlePacket(remoteAddr string, packet []byte) {
	if len(packet) > 0 && remoteAddr != "" {
		s.received += len(packet)
	}
}

// serve reads packets into pooled buffers until the connection fails.
func (s *server) serve() error {
	for {
		data := getPacketBuffer()
		data = data[:MaxReceivePacketSize]
		n, remoteAddr, err := s.conn.ReadFrom(data)
		if err != nil {
			putPacketBuffer(data)
			return err
		}
		data = data[:n]
		s.handlePacket(remoteAddr, data)
		putPacketBuffer(data)
	}
}
