// Package fixed is the fixed twin of corpusheld8/tcpulse36: the pool holds
// *[]byte and the handlers dereference it, as after yuuki/tcpulse#36.
package fixed

import (
	"io"
	"net"
	"sync"
)

const bufSize = 64 * 1024

var bufPool = sync.Pool{
	New: func() interface{} {
		b := make([]byte, bufSize)
		return &b
	},
}

func handleTCP(conn net.Conn) error {
	defer conn.Close()
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)

	_, err := io.CopyBuffer(conn, conn, *bp)
	return err
}

func serveUDP(pc net.PacketConn) error {
	for {
		bp := bufPool.Get().(*[]byte)
		buf := *bp
		n, addr, err := pc.ReadFrom(buf)
		if err != nil {
			bufPool.Put(bp)
			return err
		}
		_, err = pc.WriteTo(buf[:n], addr)
		bufPool.Put(bp)
		if err != nil {
			return err
		}
	}
}

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
