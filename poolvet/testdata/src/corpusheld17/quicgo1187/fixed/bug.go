// Package fixed is the fixed twin of quic-go/quic-go#1187
// (https://github.com/quic-go/quic-go/pull/1187): as in the PR, the pool
// holds *[]byte and the same pointer goes back, so Put does not allocate.
package fixed

import "sync"

const MaxReceivePacketSize = 1452

var bufferPool sync.Pool

func getPacketBuffer() *[]byte {
	return bufferPool.Get().(*[]byte)
}

func putPacketBuffer(buf *[]byte) {
	if cap(*buf) != MaxReceivePacketSize {
		panic("putPacketBuffer called with packet of wrong size!")
	}
	bufferPool.Put(buf)
}

func init() {
	bufferPool.New = func() any {
		b := make([]byte, 0, MaxReceivePacketSize)
		return &b
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
		buffer := getPacketBuffer()
		data := (*buffer)[:MaxReceivePacketSize]
		n, remoteAddr, err := s.conn.ReadFrom(data)
		if err != nil {
			putPacketBuffer(buffer)
			return err
		}
		data = data[:n]
		s.handlePacket(remoteAddr, data)
		putPacketBuffer(buffer)
	}
}
