// Package bug reproduces the shape of yuuki/tcpulse#36
// (https://github.com/yuuki/tcpulse/pull/36, "fix: eliminate pointer
// allocation warnings in sync.Pool usage (SA6002)"): the TCP and UDP echo
// servers of the load generator took message buffers from a sync.Pool as
// []byte and gave them back as []byte, so each Put boxed a slice header and
// allocated on the hot path that the pool was meant to keep allocation-free.
//
// Check: nonpointer (a []byte is put back into a sync.Pool by value, once in
// a deferred Put of the TCP handler and once in the UDP read loop).
package bug

import (
	"io"
	"net"
	"sync"
)

const bufSize = 64 * 1024

var bufPool = sync.Pool{
	New: func() interface{} { return make([]byte, bufSize) },
}

// handleTCP echoes everything the peer sends.
func handleTCP(conn net.Conn) error {
	defer conn.Close()
	buf := bufPool.Get().([]byte)
	defer bufPool.Put(buf) // want `nonpointer`

	_, err := io.CopyBuffer(conn, conn, buf)
	return err
}

// serveUDP echoes each datagram back to its sender.
func serveUDP(pc net.PacketConn) error {
	for {
		buf := bufPool.Get().([]byte)
		n, addr, err := pc.ReadFrom(buf)
		if err != nil {
			bufPool.Put(buf) // want `nonpointer`
			return err
		}
		_, err = pc.WriteTo(buf[:n], addr)
		bufPool.Put(buf) // want `nonpointer`
		if err != nil {
			return err
		}
	}
}

// Serve runs both servers until one fails.
func Serve(ln net.Listener, pc net.PacketConn) error {
	errc := make(chan error, 1)
	go func() { errc <- serveUDP(pc) }()
	for {
		conn, err := ln.Accept()
		if err != nil {
			return err
		}
		go handleTCP(conn)
		select {
		case err := <-errc:
			return err
		default:
		}
	}
}
