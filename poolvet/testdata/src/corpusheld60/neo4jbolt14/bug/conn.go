// Source: https://github.com/johnnadratowski/golang-neo4j-bolt-driver/issues/14
// fixed by https://github.com/johnnadratowski/golang-neo4j-bolt-driver/pull/20
// (commit bb7188c06f1110fbd9e4bd4f86703b8c655b5d65, "Added handling for
// connection errors in connection pool").
//
// Bug: boltDriverPool keeps connections in a buffered channel. Close on a
// pooled boltConn calls reclaim, which copies the connection into a new
// boltConn and sends it back into d.pool. When the connection had failed
// (timed out, reset by the server, unrecognized response) the copy still held
// the dead net.Conn of its last user, so the pool kept handing the broken
// connection out and every later query on it failed ("An error occurred
// writing to stream").
//
// Fix: Read/Write/initialize record failures in a new connErr field, and
// reclaim puts a fresh, uninitialized connection into the pool instead of
// the old one when connErr is set or the connection was closed.
//
// Check: noreset (reclaim sends the copied connection, still holding its
// failed net.Conn, back into d.pool)
package bug

import (
	"errors"
	"io"
	"net"
	"time"
)

// DriverPool is a driver allowing connection to Neo4j with support for connection pooling
type DriverPool interface {
	OpenPool() (*boltConn, error)
	reclaim(*boltConn)
}

type boltDriverPool struct {
	connStr  string
	maxConns int
	pool     chan *boltConn
}

// NewDriverPool creates a new Driver object with connection pooling
func NewDriverPool(connStr string, max int) (DriverPool, error) {
	d := &boltDriverPool{
		connStr:  connStr,
		maxConns: max,
		pool:     make(chan *boltConn, max),
	}

	for i := 0; i < max; i++ {
		conn, err := newPooledBoltConn(connStr, d)
		if err != nil {
			return nil, err
		}

		d.pool <- conn
	}

	return d, nil
}

// OpenPool opens a Neo-specific connection.
func (d *boltDriverPool) OpenPool() (*boltConn, error) {
	conn := <-d.pool
	if conn.conn == nil {
		if err := conn.initialize(); err != nil {
			return nil, err
		}
	}
	return conn, nil
}

func (d *boltDriverPool) reclaim(conn *boltConn) {
	// sneakily swap out connection so a reference to
	// it isn't held on to
	newConn := &boltConn{}
	*newConn = *conn
	d.pool <- newConn // want `noreset`
	conn = nil
}

type boltConn struct {
	connStr    string
	conn       net.Conn
	timeout    time.Duration
	closed     bool
	poolDriver DriverPool
}

func newPooledBoltConn(connStr string, driver DriverPool) (*boltConn, error) {
	c := &boltConn{
		connStr: connStr,
		timeout: time.Second * time.Duration(60),
	}
	c.poolDriver = driver
	return c, nil
}

func (c *boltConn) initialize() error {
	conn, err := net.DialTimeout("tcp", c.connStr, c.timeout)
	if err != nil {
		return err
	}
	c.conn = conn
	return nil
}

// Read reads the data from the underlying connection
func (c *boltConn) Read(b []byte) (n int, err error) {
	if err := c.conn.SetReadDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, errors.New("An error occurred setting read deadline")
	}

	n, err = c.conn.Read(b)
	if err != nil && err != io.EOF {
		err = errors.New("An error occurred reading from stream")
	}
	return n, err
}

// Write writes the data to the underlying connection
func (c *boltConn) Write(b []byte) (n int, err error) {
	if err := c.conn.SetWriteDeadline(time.Now().Add(c.timeout)); err != nil {
		return 0, errors.New("An error occurred setting write deadline")
	}

	n, err = c.conn.Write(b)
	if err != nil {
		err = errors.New("An error occurred writing to stream")
	}
	return n, err
}

// Close closes the connection, or reclaims it into the pool when pooled.
func (c *boltConn) Close() error {
	if c.closed {
		return nil
	}

	if c.poolDriver != nil {
		// If using connection pooling, don't close connection, just reclaim it
		c.poolDriver.reclaim(c)
		return nil
	}

	err := c.conn.Close()
	c.closed = true
	if err != nil {
		return errors.New("An error occurred closing the connection")
	}
	return nil
}

// ExecNeo writes a query and reads the reply.
func (c *boltConn) ExecNeo(query []byte, reply []byte) (int, error) {
	if _, err := c.Write(query); err != nil {
		return 0, err
	}
	return c.Read(reply)
}
