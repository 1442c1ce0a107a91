// Package bug reproduces the shape of lesismal/nbio commit c8aa877
// (https://github.com/lesismal/nbio/commit/c8aa877e69cc577fd10d3a7a933921f1a43c7501,
// "websocket.Upgrader: fix concurrent release"): websocket Upgraders came from a
// sync.Pool and Upgrader.Close, called by the parser when the connection goes
// away, cleared the Upgrader and put it back. But Read hands every data frame
// to the message executor as a closure that still reads u.conn when it runs
// later on another goroutine, so a frame handled after Close sees a recycled
// Upgrader (now zeroed, or already owned by a new connection). The fix dropped
// the Upgrader pool: NewUpgrader allocates and Close no longer puts it back.
// Check: useafterput (the executor closure reading u.conn after Close put u back).
package bug

import "sync"

var (
	emptyUpgrader = Upgrader{}

	upgraderPool = sync.Pool{
		New: func() interface{} {
			return &Upgrader{}
		},
	}
)

// Conn is the websocket connection seen by user handlers.
type Conn struct {
	dataFrameHandler func(c *Conn, messageType int, fin bool, data []byte)
	onClose          func(c *Conn, err error)
}

// Parser feeds bytes to its Upgrader and runs handlers on an executor.
type Parser struct {
	Upgrader *Upgrader
	Execute  func(f func())
	errClose error
}

// Close is called by the engine when the underlying connection is closed.
func (p *Parser) Close() {
	if p.Upgrader != nil {
		p.Upgrader.Close(p, p.errClose)
	}
}

// Upgrader holds the per-connection websocket state.
type Upgrader struct {
	conn    *Conn
	opcode  int
	buffer  []byte
	message []byte
}

func NewUpgrader() *Upgrader {
	return upgraderPool.Get().(*Upgrader)
}

func malloc(n int) []byte { return make([]byte, n) }

func free(b []byte) {}

// Read parses frames from data and dispatches each one.
func (u *Upgrader) Read(p *Parser, data []byte) error {
	u.buffer = append(u.buffer, data...)
	for len(u.buffer) >= 2 {
		fin := u.buffer[0]&0x80 != 0
		u.opcode = int(u.buffer[0] & 0x0f)
		n := int(u.buffer[1] & 0x7f)
		if len(u.buffer) < 2+n {
			break
		}
		body := u.buffer[2 : 2+n]
		u.buffer = u.buffer[2+n:]
		if u.conn.dataFrameHandler != nil {
			var frame []byte
			if len(body) > 0 {
				frame = malloc(len(body))
				copy(frame, body)
			}
			u.handleDataFrame(p, u.conn, u.opcode, fin, frame)
		}
	}
	return nil
}

func (u *Upgrader) handleDataFrame(p *Parser, c *Conn, messageType int, fin bool, data []byte) {
	opcode := u.opcode
	p.Execute(func() {
		c.dataFrameHandler(u.conn, opcode, fin, data) // want `useafterput`
	})
}

// Close releases the Upgrader when the connection is gone.
func (u *Upgrader) Close(p *Parser, err error) {
	if u.conn != nil {
		u.conn.onClose(u.conn, err)
	}
	if len(u.buffer) > 0 {
		free(u.buffer)
	}
	if len(u.message) > 0 {
		free(u.message)
	}
	*u = emptyUpgrader
	upgraderPool.Put(u)
}
