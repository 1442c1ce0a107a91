package bug

import (
	"errors"
	"net"
	"time"
)

// Msg stands in for dns.Msg.
type Msg struct {
	ID  uint16
	Raw []byte
}

// Conn stands in for dns.Conn, a DNS connection over a net.Conn.
type Conn struct {
	net.Conn
}

func (c *Conn) WriteMsg(m *Msg) error {
	_, err := c.Conn.Write(m.Raw)
	return err
}

func (c *Conn) ReadMsg() (*Msg, error) {
	b := make([]byte, 512)
	n, err := c.Conn.Read(b)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, errors.New("empty message")
	}
	return &Msg{Raw: b[:n]}, nil
}

func (c *Conn) SetDeadline(t time.Time) error { return c.Conn.SetDeadline(t) }
