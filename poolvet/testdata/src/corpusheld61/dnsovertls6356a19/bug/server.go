// Source: https://github.com/mikispag/dns-over-tls-forwarder/issues/2
// ("Race Condition: connections can be put in the pool while in use"),
// fixed by commit 6356a1947170bfb7965ab7ef4e7854562f94f5ca ("Serve uses a
// slice of pools, fixed #2, pools are safer to shutdown").
//
// Bug: the forwarder keeps upstream TLS connections in channel-based pools
// (pool.get / pool.put). forwardMessageAndGetResponse took one connection
// from the CloudFlare pool and one from the Google pool, started
// exchangeMessages on each in its own goroutine and returned as soon as the
// first answer arrived. Its deferred function then put both connections back
// into their pools while the slower goroutine was still writing to and
// reading from its connection, so another request could get the same
// connection and the messages could be corrupted.
//
// Fix: each exchangeMessages goroutine gets its connection from its pool and
// puts it back itself when its own exchange is done (and the pool gained a
// closed flag so put after shutdown is safe).
//
// Check: useafterput (the go statements hand the pooled connections to
// goroutines that may outlive the deferred s.cloudFlarePool.put /
// s.googlePool.put)
package bug

import (
	"time"
)

const connectionTimeout = 10 * time.Second

type connector func() (*Conn, error)

type pool struct {
	buf  chan *Conn
	c    connector
	done chan struct{}
}

func newPool(size int, c connector) *pool {
	return &pool{
		buf:  make(chan *Conn, size),
		c:    c,
		done: make(chan struct{}),
	}
}

func (p pool) get() (*Conn, error) {
	select {
	case c := <-p.buf:
		return c, nil
	default:
		return p.c()
	}
}

func (p pool) put(c *Conn) {
	select {
	case p.buf <- c:
	default:
		c.Close()
	}
}

// shutdown is not safe for concurrent use with put
func (p pool) shutdown() {
	close(p.buf)
	for c := range p.buf {
		c.Close()
	}
}

type Server struct {
	cloudFlarePool *pool
	googlePool     *pool
}

func exchangeMessages(c *Conn, q *Msg, out chan *Msg) {
	if err := c.WriteMsg(q); err != nil {
		out <- nil
	}
	m, err := c.ReadMsg()
	if err != nil {
		out <- nil
	}
	if m == nil {
		out <- nil
	}
	out <- m
}

func (s *Server) forwardMessageAndGetResponse(q *Msg) (m *Msg) {
	cloudFlareConn, errCloudFlare := s.cloudFlarePool.get()
	if errCloudFlare != nil {
		cloudFlareConn.Close()
	} else {
		cloudFlareConn.SetDeadline(time.Now().Add(connectionTimeout))
	}
	googleConn, errGoogle := s.googlePool.get()
	if errGoogle != nil {
		googleConn.Close()
		if errCloudFlare != nil {
			return nil
		}
	} else {
		googleConn.SetDeadline(time.Now().Add(connectionTimeout))
	}
	defer func() {
		if m == nil {
			cloudFlareConn.Close()
			googleConn.Close()
			return
		}
		if errCloudFlare != nil {
			cloudFlareConn.Close()
		} else {
			s.cloudFlarePool.put(cloudFlareConn)
		}
		if errGoogle != nil {
			googleConn.Close()
		} else {
			s.googlePool.put(googleConn)
		}
	}()

	// Race between CloudFlare and Google upstream servers.
	msgChan := make(chan *Msg, 2)
	go exchangeMessages(cloudFlareConn, q, msgChan) // want `useafterput`
	go exchangeMessages(googleConn, q, msgChan)     // want `useafterput`

	m = <-msgChan
	if m != nil {
		return m
	}
	return <-msgChan
}
