// Source: https://github.com/VictoriaMetrics/VictoriaMetrics/pull/1597
// (commit 42e07cfaeae842a773933ed0cbabf3cc17c96ce7, "reset deadline, fix
// #1562"; issue https://github.com/VictoriaMetrics/VictoriaMetrics/issues/1562
// "cluster: vmselect query fails sporadically").
//
// Bug: lib/netutil.ConnPool is a free list of *handshake.BufferedConn.
// vmselect's execOnConn takes a connection from the pool, sets an absolute
// read/write deadline on it for the current query (query deadline + 2s) and,
// when the query succeeds or vmstorage returns a remote error, puts the
// connection back. ConnPool.Put stored the connection as is, so the next
// query that took it out of the pool inherited the previous user's deadline;
// vminsert, which only sets the write deadline, kept the stale read
// deadline. Queries then failed sporadically with "cannot read data in 0.000
// seconds: unexpected EOF" / i/o timeouts on a pooled connection.
//
// Fix: ConnPool.Put clears the deadline with bc.SetDeadline(time.Time{})
// before appending the connection to the free list (closing it instead if
// that fails).
//
// Check: noreset (ConnPool.Put appends bc to cp.conns while it still carries
// the deadline its last user set on it)
package bug

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// BufferedConn is a net.Conn with Flush support (lib/handshake).
type BufferedConn struct {
	net.Conn
}

// Func performs the handshake on a freshly dialed connection.
type Func func(c net.Conn, compressionLevel int) (*BufferedConn, error)

// ConnPool is a connection pool with ZSTD-compressed connections.
type ConnPool struct {
	mu   sync.Mutex
	dial func() (net.Conn, error)
	addr string

	name             string
	handshakeFunc    Func
	compressionLevel int

	conns []*BufferedConn
}

// Get returns free connection from the pool.
func (cp *ConnPool) Get() (*BufferedConn, error) {
	var bc *BufferedConn
	cp.mu.Lock()
	if len(cp.conns) > 0 {
		bc = cp.conns[len(cp.conns)-1]
		cp.conns[len(cp.conns)-1] = nil
		cp.conns = cp.conns[:len(cp.conns)-1]
	}
	cp.mu.Unlock()
	if bc != nil {
		return bc, nil
	}

	// Pool is empty. Create new connection.
	c, err := cp.dial()
	if err != nil {
		return nil, fmt.Errorf("cannot dial %s: %w", cp.addr, err)
	}
	if bc, err = cp.handshakeFunc(c, cp.compressionLevel); err != nil {
		err = fmt.Errorf("cannot perform %q handshake with server %q: %w", cp.name, cp.addr, err)
		_ = c.Close()
		return nil, err
	}
	return bc, nil
}

// Put puts bc back to the pool.
//
// Do not put broken and closed connections to the pool!
func (cp *ConnPool) Put(bc *BufferedConn) {
	cp.mu.Lock()
	cp.conns = append(cp.conns, bc) // want `noreset`
	cp.mu.Unlock()
}

type storageNode struct {
	connPool *ConnPool
}

type errRemote struct {
	msg string
}

func (er *errRemote) Error() string {
	return er.msg
}

func (sn *storageNode) execOnConn(rpcName string, f func(bc *BufferedConn) error, deadline time.Time) error {
	timeout := time.Until(deadline)
	if timeout <= 0 {
		return fmt.Errorf("request timeout reached")
	}
	bc, err := sn.connPool.Get()
	if err != nil {
		return fmt.Errorf("cannot obtain connection from a pool: %w", err)
	}
	// Extend the connection deadline by 2 seconds, so the remote storage could return `timeout` error
	// without the need to break the connection.
	connDeadline := deadline.Add(2 * time.Second)
	if err := bc.SetDeadline(connDeadline); err != nil {
		_ = bc.Close()
		return fmt.Errorf("FATAL: cannot set connection deadline: %w", err)
	}
	if _, err := bc.Write([]byte(rpcName)); err != nil {
		// Close the connection instead of returning it to the pool,
		// since it may be broken.
		_ = bc.Close()
		return fmt.Errorf("cannot send rpcName=%q to the server: %w", rpcName, err)
	}

	if err := f(bc); err != nil {
		var er *errRemote
		if errors.As(err, &er) {
			// Remote error. The connection may be re-used. Return it to the pool.
			sn.connPool.Put(bc)
		} else {
			// Local error.
			// Close the connection instead of returning it to the pool,
			// since it may be broken.
			_ = bc.Close()
		}
		return fmt.Errorf("cannot execute rpcName=%q: %w", rpcName, err)
	}
	// Return the connection back to the pool, assuming it is healthy.
	sn.connPool.Put(bc)
	return nil
}

// sendBufToReplicas is the vminsert side: it only sets the write deadline,
// so a read deadline left by a previous user stays in effect.
func (sn *storageNode) sendBufToReplicas(buf []byte) error {
	bc, err := sn.connPool.Get()
	if err != nil {
		return err
	}
	if err := bc.SetWriteDeadline(time.Now().Add(30 * time.Second)); err != nil {
		_ = bc.Close()
		return fmt.Errorf("cannot set write deadline: %w", err)
	}
	if _, err := bc.Write(buf); err != nil {
		_ = bc.Close()
		return err
	}
	ack := make([]byte, 1)
	if _, err := bc.Read(ack); err != nil {
		_ = bc.Close()
		return fmt.Errorf("cannot read `ack` from vmstorage: %w", err)
	}
	sn.connPool.Put(bc)
	return nil
}
