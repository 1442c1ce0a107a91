// Source: https://github.com/aerospike/aerospike-client-go/commit/b435fca13f7534e0b52873621310ec9d89cb9c24
// ("[OPS-5141] Invalidate Session Token on unsuccessful login / Copy token
// from the connection buffer / ...").
//
// Bug: each Connection takes its dataBuffer from the package-level
// sync.Pool bufPool and puts it back in Close. The login command parses the
// server's reply in that buffer and kept the session token as a sub-slice
// of it (lcmd.SessionToken = lcmd.dataBuffer[off:off+mlen]); login then
// stored the token in the long-lived Node, which hands it to every new
// connection for token authentication. When the connection is closed its
// buffer goes back to bufPool and is handed to another connection, which
// overwrites the bytes the node still uses as its session token.
// Fix: the token is copied into a new byte slice before it is stored (the
// same commit also reworked session expiry into a sessionInfo struct; that
// part is left out here).
//
// Check: useafterput (at bufPool.Put(ctn.dataBuffer) in Close: the buffer's
// memory was already stored in the node as the session token, which
// outlives the connection)
package bug

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultBufferSize specifies the initial size of the connection buffer when it is created.
var DefaultBufferSize = 64 * 1024 // 64 KiB

// MaxBufferSize is the largest buffer kept for reuse.
var MaxBufferSize = 1024 * 1024 * 10

// bufPool reuses the data buffers to remove pressure from
// the allocator and the GC during connection churns.
var bufPool = sync.Pool{
	New: func() interface{} {
		return make([]byte, DefaultBufferSize)
	},
}

// Node is a server node; it outlives its connections.
type Node struct {
	connectionCount int64
	_sessionToken   atomic.Value //[]byte
}

func (nd *Node) sessionToken() []byte {
	st := nd._sessionToken.Load()
	if st == nil {
		return nil
	}
	return st.([]byte)
}

// Connection represents a connection with a timeout.
type Connection struct {
	node *Node

	// connection object
	conn net.Conn

	// to avoid having a buffer pool and contention
	dataBuffer []byte

	closer sync.Once
}

func newConnection(node *Node, conn net.Conn) *Connection {
	newConn := &Connection{dataBuffer: bufPool.Get().([]byte)}
	newConn.node = node
	newConn.conn = conn
	atomic.AddInt64(&node.connectionCount, 1)
	return newConn
}

// Read reads exactly length bytes into buf.
func (ctn *Connection) Read(buf []byte, length int) (int, error) {
	ctn.conn.SetReadDeadline(time.Now().Add(time.Second))
	return io.ReadFull(ctn.conn, buf[:length])
}

// Close closes the connection
func (ctn *Connection) Close() {
	ctn.closer.Do(func() {
		if ctn != nil && ctn.conn != nil {
			// deregister
			if ctn.node != nil {
				atomic.AddInt64(&ctn.node.connectionCount, -1)
			}

			ctn.conn.Close()
			ctn.conn = nil

			// put the data buffer back in the pool in case it gets used again
			if len(ctn.dataBuffer) >= DefaultBufferSize && len(ctn.dataBuffer) <= MaxBufferSize {
				bufPool.Put(ctn.dataBuffer) // want `useafterput`
			}

			ctn.dataBuffer = nil
			ctn.node = nil
		}
	})
}

// login will send authentication information to the server.
func (ctn *Connection) login(user string, hashedPassword []byte, sessionToken []byte) error {
	var err error
	command := newLoginCommand(ctn.dataBuffer)

	if sessionToken == nil {
		err = command.login(ctn, user, hashedPassword)
	} else {
		err = command.authenticateViaToken(ctn, sessionToken)
	}

	if err != nil {
		// Socket not authenticated. Do not put back into pool.
		ctn.Close()
		return err
	}

	if ctn.node != nil && command.SessionToken != nil {
		ctn.node._sessionToken.Store(command.SessionToken)
	}

	return nil
}

// Connect opens an authenticated connection to the node.
func (nd *Node) Connect(conn net.Conn, user string, hashedPassword []byte) (*Connection, error) {
	c := newConnection(nd, conn)
	if err := c.login(user, hashedPassword, nd.sessionToken()); err != nil {
		return nil, err
	}
	return c, nil
}
