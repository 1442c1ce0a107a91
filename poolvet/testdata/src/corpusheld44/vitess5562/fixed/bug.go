// Package bug reproduces the shape of vitessio/vitess#5562
// (https://github.com/vitessio/vitess/pull/5562, cherry-picked as
// dolthub/vitess#191; symptom in dolthub/go-mysql-server#562): the MySQL
// server reads each command into an ephemeral packet buffer taken from a
// buffer pool and recycles it as soon as the command is parsed. For
// COM_STMT_EXECUTE the parsed string/blob bind variables were slices of that
// packet, so once recycleReadPacket put the buffer back the handler executed
// the statement with bind values living in memory another connection was
// already writing into (a data race seen from the SQL engine).
// Check: useafterput (bind variables aliasing the recycled packet buffer are
// used by the handler after the buffer went back to the pool), reported at the
// handler call.
// Fixed twin: bind values are copied out of the packet while parsing.
package bug

import (
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const (
	ComStmtExecute = 0x17
	ComQuery       = 0x03
)

// bufPool hands out packet buffers of at least the requested size.
type bucketPool struct {
	pool sync.Pool
	max  int
}

func (p *bucketPool) Get(size int) *[]byte {
	if size > p.max {
		b := make([]byte, size)
		return &b
	}
	if v := p.pool.Get(); v != nil {
		b := v.(*[]byte)
		if cap(*b) >= size {
			*b = (*b)[:size]
			return b
		}
	}
	b := make([]byte, size, p.max)
	return &b
}

func (p *bucketPool) Put(b *[]byte) {
	if cap(*b) != p.max {
		return
	}
	p.pool.Put(b)
}

var bufPool = &bucketPool{max: 16 * 1024}

type BindVariable struct {
	Type  byte
	Value []byte
}

type PrepareData struct {
	StatementID uint32
	ParamsCount uint16
	BindVars    map[string]*BindVariable
}

type Handler interface {
	ComQuery(c *Conn, query string) error
	ComStmtExecute(c *Conn, prepare *PrepareData) error
}

type Conn struct {
	r                      io.Reader
	handler                Handler
	PrepareData            map[uint32]*PrepareData
	currentEphemeralBuffer *[]byte
}

func (c *Conn) readEphemeralPacket() ([]byte, error) {
	var header [4]byte
	if _, err := io.ReadFull(c.r, header[:]); err != nil {
		return nil, err
	}
	length := int(uint32(header[0]) | uint32(header[1])<<8 | uint32(header[2])<<16)
	c.currentEphemeralBuffer = bufPool.Get(length)
	if _, err := io.ReadFull(c.r, *c.currentEphemeralBuffer); err != nil {
		return nil, err
	}
	return *c.currentEphemeralBuffer, nil
}

func (c *Conn) recycleReadPacket() {
	if c.currentEphemeralBuffer == nil {
		return
	}
	bufPool.Put(c.currentEphemeralBuffer)
	c.currentEphemeralBuffer = nil
}

func parseLenEncString(data []byte, pos int) ([]byte, int, bool) {
	if pos >= len(data) {
		return nil, 0, false
	}
	n := int(data[pos])
	pos++
	if pos+n > len(data) {
		return nil, 0, false
	}
	return data[pos : pos+n], pos + n, true
}

func (c *Conn) parseComStmtExecute(data []byte) (uint32, error) {
	if len(data) < 5 {
		return 0, errors.New("short COM_STMT_EXECUTE packet")
	}
	stmtID := binary.LittleEndian.Uint32(data[1:5])
	prepare, ok := c.PrepareData[stmtID]
	if !ok {
		return 0, errors.New("unknown statement")
	}
	pos := 5
	for i := uint16(0); i < prepare.ParamsCount; i++ {
		if pos >= len(data) {
			return 0, errors.New("short parameter list")
		}
		typ := data[pos]
		val, next, ok := parseLenEncString(data, pos+1)
		if !ok {
			return 0, errors.New("bad parameter")
		}
		pos = next
		// Copy the value: the packet buffer is recycled right after parsing.
		prepare.BindVars[paramName(i)] = &BindVariable{Type: typ, Value: append([]byte(nil), val...)}
	}
	return stmtID, nil
}

func paramName(i uint16) string {
	return "v" + string(rune('1'+i))
}

func (c *Conn) handleNextCommand() error {
	data, err := c.readEphemeralPacket()
	if err != nil {
		c.recycleReadPacket()
		return err
	}
	switch data[0] {
	case ComQuery:
		query := string(data[1:])
		c.recycleReadPacket()
		return c.handler.ComQuery(c, query)
	case ComStmtExecute:
		stmtID, err := c.parseComStmtExecute(data)
		c.recycleReadPacket()
		if err != nil {
			return err
		}
		prepare := c.PrepareData[stmtID]
		return c.handler.ComStmtExecute(c, prepare)
	default:
		c.recycleReadPacket()
		return errors.New("unsupported command")
	}
}
