// Source: https://github.com/ustclug/rsync-proxy/pull/10
// Commit: https://github.com/ustclug/rsync-proxy/commit/5e31949dc95cf5a89ea7d8050928e678b3809083
// ("refactor: update server — 1. Correct the use of sync.Pool").
//
// Bug: the Server's bufPool stored plain []byte slices (New returned
// make([]byte, TCPBufferSize)) and relay did
// `defer s.bufPool.Put(buf)` with the slice value (silenced with
// nolint:staticcheck). Putting a slice header into the interface{} of
// sync.Pool allocates on every Put, defeating the pool.
// Fix: New returns a *[]byte, relay Gets a *[]byte, defers Put of the
// pointer and dereferences it for use.
//
// Check: nonpointer (at the deferred Put in relay, which stores a []byte
// value, not a pointer, into the sync.Pool)
package fixed

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"sync"
	"time"
)

const (
	TCPBufferSize = 256
)

var (
	RsyncdVersionPrefix = []byte("@RSYNCD:")
	RsyncdServerVersion = []byte("@RSYNCD: 31.0\n")
	RsyncdExit          = []byte("@RSYNCD: EXIT\n")
)

type Server struct {
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	Motd         string

	reloadLock sync.RWMutex
	dialer     net.Dialer
	bufPool    sync.Pool
	// name -> address
	modules map[string]string
}

func New() *Server {
	return &Server{
		bufPool: sync.Pool{
			New: func() interface{} {
				buf := make([]byte, TCPBufferSize)
				return &buf
			},
		},
		dialer: net.Dialer{},
	}
}

func writeWithTimeout(conn net.Conn, buf []byte, timeout time.Duration) (n int, err error) {
	if timeout > 0 {
		_ = conn.SetWriteDeadline(time.Now().Add(timeout))
	}
	n, err = conn.Write(buf)
	return
}

func readLine(conn net.Conn, buf []byte, timeout time.Duration) (n int, err error) {
	max := len(buf)
	for {
		if timeout > 0 {
			_ = conn.SetReadDeadline(time.Now().Add(timeout))
		}
		var nr int
		nr, err = conn.Read(buf[n:])
		n += nr
		if n > 0 && buf[n-1] == '\n' {
			return n, nil
		}
		if n == max {
			return n, nil
		}
		if err != nil {
			return
		}
	}
}

func (s *Server) relay(ctx context.Context, downConn *net.TCPConn) error {
	defer downConn.Close()

	bufPtr := s.bufPool.Get().(*[]byte)
	defer s.bufPool.Put(bufPtr)
	buf := *bufPtr

	writeTimeout := s.WriteTimeout
	readTimeout := s.ReadTimeout

	n, err := readLine(downConn, buf, readTimeout)
	if err != nil {
		return fmt.Errorf("read version from client: %w", err)
	}
	var RsyncdClientVersion = make([]byte, n)
	copy(RsyncdClientVersion, buf[:n])
	if !bytes.HasPrefix(RsyncdClientVersion, RsyncdVersionPrefix) {
		return fmt.Errorf("unknown version from client: %s", RsyncdClientVersion)
	}

	_, err = writeWithTimeout(downConn, RsyncdServerVersion, writeTimeout)
	if err != nil {
		return fmt.Errorf("send version to client: %w", err)
	}

	n, err = readLine(downConn, buf, readTimeout)
	if err != nil {
		return fmt.Errorf("read module from client: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("empty request from client")
	}
	moduleName := string(buf[:n-1]) // trim trailing \n

	s.reloadLock.RLock()
	upstreamAddr, ok := s.modules[moduleName]
	s.reloadLock.RUnlock()
	if !ok {
		_, _ = writeWithTimeout(downConn, RsyncdExit, writeTimeout)
		return nil
	}

	conn, err := s.dialer.DialContext(ctx, "tcp", upstreamAddr)
	if err != nil {
		return fmt.Errorf("dial to upstream: %s: %w", upstreamAddr, err)
	}
	upConn := conn.(*net.TCPConn)
	defer upConn.Close()

	_, err = writeWithTimeout(upConn, RsyncdClientVersion, writeTimeout)
	if err != nil {
		return fmt.Errorf("send version to upstream: %w", err)
	}

	n, err = readLine(upConn, buf, readTimeout)
	if err != nil {
		return fmt.Errorf("read version from upstream: %w", err)
	}
	data := buf[:n]
	if !bytes.HasPrefix(data, RsyncdVersionPrefix) {
		return fmt.Errorf("unknown version from upstream: %s", data)
	}

	_, err = writeWithTimeout(upConn, []byte(moduleName+"\n"), writeTimeout)
	if err != nil {
		return fmt.Errorf("send module to upstream: %w", err)
	}
	return nil
}
