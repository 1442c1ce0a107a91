// Source: https://github.com/lxzan/gws/commit/a20d4aefc6a18cd2463e6678fd052912d867506a
// ("reset bufio.Reader").
//
// Bug: server connections take a *bufio.Reader from config.readerPool (a
// generic wrapper around sync.Pool) and Reset it onto the accepted net.Conn.
// When ReadLoop ends, the reader went back into the pool still wrapping the
// finished connection (and whatever was left unread in its buffer), so the
// idle pooled reader kept the old net.Conn and its state reachable until
// the next user Reset it.
// Fix: call c.br.Reset(nil) before readerPool.Put(c.br).
// Check: noreset (the Put of the reader that still references the closed
// connection)
package bug

import (
	"bufio"
	"errors"
	"net"
	"sync"
	"sync/atomic"
)

type Pool[T any] struct {
	p sync.Pool
}

func NewPool[T any](f func() T) *Pool[T] {
	return &Pool[T]{p: sync.Pool{New: func() any { return f() }}}
}

func (c *Pool[T]) Put(v T) { c.p.Put(v) }

func (c *Pool[T]) Get() T { return c.p.Get().(T) }

type Config struct {
	ReadBufferSize int
	readerPool     *Pool[*bufio.Reader]
}

func NewConfig(readBufferSize int) *Config {
	c := &Config{ReadBufferSize: readBufferSize}
	c.readerPool = NewPool(func() *bufio.Reader { return bufio.NewReaderSize(nil, c.ReadBufferSize) })
	return c
}

type Event interface {
	OnOpen(socket *Conn)
	OnClose(socket *Conn, err error)
	OnMessage(socket *Conn, payload []byte)
}

var errEmpty = errors.New("")

type Conn struct {
	err      atomic.Value
	isServer bool
	conn     net.Conn
	config   *Config
	br       *bufio.Reader
	handler  Event
	closed   uint32
}

func (c *Conn) readMessage() error {
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		return err
	}
	c.handler.OnMessage(c, line)
	return nil
}

func (c *Conn) emitError(err error) {
	if atomic.CompareAndSwapUint32(&c.closed, 0, 1) {
		c.err.Store(err)
		_ = c.conn.Close()
	}
}

// ReadLoop reads messages in a loop.
func (c *Conn) ReadLoop() {
	c.handler.OnOpen(c)
	for {
		if err := c.readMessage(); err != nil {
			c.emitError(err)
			break
		}
	}
	err, ok := c.err.Load().(error)
	if !ok {
		err = errEmpty
	}
	c.handler.OnClose(c, err)

	// release resources
	if c.isServer {
		c.config.readerPool.Put(c.br) // want `noreset`
		c.br = nil
	}
}

type Server struct {
	config  *Config
	handler Event
}

func (s *Server) RunListener(listener net.Listener) error {
	defer listener.Close()

	for {
		netConn, err := listener.Accept()
		if err != nil {
			return err
		}

		go func(conn net.Conn) {
			br := s.config.readerPool.Get()
			br.Reset(conn)
			socket := &Conn{
				isServer: true,
				conn:     conn,
				config:   s.config,
				br:       br,
				handler:  s.handler,
			}
			socket.ReadLoop()
		}(netConn)
	}
}
