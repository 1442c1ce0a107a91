// Source: https://github.com/johnnadratowski/golang-neo4j-bolt-driver/pull/49
// (commit e2e2193adc0996fb021c1905762985c5db5321f3, "return the connection
// back into the pool even if the createConn fails to prevent deadlock").
//
// Bug: boltDriverPool keeps its connections in a buffered channel. OpenPool
// takes a connection and, if it has no socket yet, initializes it. When
// initialize fails after the handshake (or INIT) step, initialize itself calls
// c.Close(), which for a pooled connection reclaims it into d.pool. OpenPool
// then sent the same connection back into d.pool a second time: the
// connection is returned twice, and with the channel already full again the
// second send blocks forever while holding refLock (deadlock).
//
// Fix: OpenPool no longer puts the connection back; initialize returns the
// connection to the pool (via Close) on every failure path, including a
// failed createConn.
//
// Check: doubleput (the send `d.pool <- conn` in OpenPool after initialize's
// c.Close() already reclaimed conn into the pool)
package bug

import (
	"bytes"
	"database/sql/driver"
	"errors"
	"log"
	"net"
	"sync"
	"time"
)

var (
	handShake          = []byte{0x60, 0x60, 0xB0, 0x17, 0x00, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	noVersionSupported = []byte{0x00, 0x00, 0x00, 0x00}
)

// DriverPool is a driver allowing connection to Neo4j with support for connection pooling
type DriverPool interface {
	OpenPool() (*boltConn, error)
	reclaim(*boltConn) error
}

type boltDriverPool struct {
	connStr  string
	maxConns int
	pool     chan *boltConn
	connRefs []*boltConn
	refLock  sync.Mutex
	closed   bool
}

func createDriverPool(connStr string, max int) (*boltDriverPool, error) {
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
	d.refLock.Lock()
	defer d.refLock.Unlock()
	if !d.closed {
		conn := <-d.pool
		if conn.conn == nil {
			if err := conn.initialize(); err != nil {
				// Return the connection back into the pool
				d.pool <- conn // want `doubleput`
				return nil, err
			}
			d.connRefs = append(d.connRefs, conn)
		}
		return conn, nil
	}
	return nil, errors.New("Driver pool has been closed")
}

func (d *boltDriverPool) reclaim(conn *boltConn) error {
	var newConn *boltConn
	var err error
	if conn.connErr != nil || conn.closed {
		newConn, err = newPooledBoltConn(d.connStr, d)
		if err != nil {
			return err
		}
	} else {
		// sneakily swap out connection so a reference to
		// it isn't held on to
		newConn = &boltConn{}
		*newConn = *conn
	}

	d.pool <- newConn
	conn = nil

	return nil
}

type boltConn struct {
	connStr       string
	conn          net.Conn
	connErr       error
	serverVersion []byte
	timeout       time.Duration
	closed        bool
	poolDriver    DriverPool
}

func newPooledBoltConn(connStr string, driver DriverPool) (*boltConn, error) {
	c := &boltConn{
		connStr:       connStr,
		timeout:       time.Second * time.Duration(60),
		serverVersion: make([]byte, 4),
	}
	c.poolDriver = driver
	return c, nil
}

func (c *boltConn) createConn() (net.Conn, error) {
	return net.DialTimeout("tcp", c.connStr, c.timeout)
}

func (c *boltConn) handShake() error {
	numWritten, err := c.Write(handShake)
	if numWritten != 20 {
		return err
	}

	numRead, err := c.Read(c.serverVersion)
	if numRead != 4 {
		return err
	} else if bytes.Equal(c.serverVersion, noVersionSupported) {
		return errors.New("Server responded with no supported version")
	}
	return nil
}

func (c *boltConn) initialize() error {
	var err error
	c.conn, err = c.createConn()
	if err != nil {
		return err
	}

	if err := c.handShake(); err != nil {
		if e := c.Close(); e != nil {
			log.Printf("An error occurred closing connection: %s", e)
		}
		return err
	}
	return nil
}

func (c *boltConn) Read(b []byte) (n int, err error) {
	n, err = c.conn.Read(b)
	if err != nil {
		c.connErr = err
		err = driver.ErrBadConn
	}
	return n, err
}

func (c *boltConn) Write(b []byte) (n int, err error) {
	n, err = c.conn.Write(b)
	if err != nil {
		c.connErr = err
		err = driver.ErrBadConn
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
		err := c.poolDriver.reclaim(c)
		if err != nil {
			c.connErr = err
			return driver.ErrBadConn
		}
		return nil
	}

	err := c.conn.Close()
	c.closed = true
	if err != nil {
		c.connErr = err
		return driver.ErrBadConn
	}
	return nil
}
