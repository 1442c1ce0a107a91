// Source: https://github.com/bilibili/overlord/commit/18d4434b6ce65517eab0241e74728b382bd041a2
// ("fixed of subResps reset").
//
// Bug: proto.Message objects come from msgPool (sync.Pool) and are also
// reused by the proxy handler from one read/dispatch/encode round to the
// next, being cleaned only by Message.Reset (and put back by Clear, which
// calls Reset). The memcache encoder's Merge appends the response pieces to
// m.subResps and Encode writes every item of m.SubResps() to the client.
// Reset did not truncate subResps, so a reused (or pooled) message still
// held the responses of its previous command and the next command's reply
// was written after the stale replies of the earlier ones.
// Fix: Reset truncates the slice: m.subResps = m.subResps[:0].
//
// Check: noreset (at Message.Reset, the project's reset function, which
// forgets subResps before the message is reused / put back by Clear)
package bug

import (
	"bufio"
	"bytes"
	"sync"
	"time"
)

var defaultTime = time.Now()

var crlfBytes = []byte("\r\n")
var endBytes = []byte("END\r\n")

// Request request interface.
type Request interface {
	Key() []byte
	Put()
}

// MCRequest is a memcache request with the node's response in data.
type MCRequest struct {
	rTp  string
	key  []byte
	data []byte
}

// Key returns the key.
func (r *MCRequest) Key() []byte { return r.key }

// Put puts the request back (trimmed: no pool here).
func (r *MCRequest) Put() { r.data, r.key = nil, nil }

var msgPool = &sync.Pool{
	New: func() interface{} {
		return NewMessage()
	},
}

// GetMsg get the msg from pool
func GetMsg() *Message {
	return msgPool.Get().(*Message)
}

// PutMsg Release Msg
func PutMsg(msg *Message) {
	msgPool.Put(msg)
}

// Message read from client.
type Message struct {
	req      []Request
	reqn     int
	subResps [][]byte
	// Start Time, Write Time, ReadTime, EndTime
	st, wt, rt, et time.Time
	err            error
}

// NewMessage will create new message object.
func NewMessage() *Message {
	return &Message{}
}

// Reset will clean the msg
func (m *Message) Reset() { // want `noreset`
	m.reqn = 0
	m.st, m.wt, m.rt, m.et = defaultTime, defaultTime, defaultTime, defaultTime
	m.err = nil
}

// Clear will clean the msg
func (m *Message) Clear() {
	m.Reset()
	for _, r := range m.req {
		r.Put()
	}
	m.req = nil
	PutMsg(m)
}

// WithRequest with proto request.
func (m *Message) WithRequest(req Request) {
	m.req = append(m.req, req)
	m.reqn++
}

func (m *Message) setRequest(req Request) {
	m.req = m.req[:0]
	m.reqn = 0
	m.WithRequest(req)
}

// Request returns proto Msg.
func (m *Message) Request() Request {
	if len(m.req) > 0 {
		return m.req[0]
	}
	return nil
}

// AddSubResps appends all items into subResps
func (m *Message) AddSubResps(items ...[]byte) {
	m.subResps = append(m.subResps, items...)
}

// SubResps returns the response bytes buffer.
func (m *Message) SubResps() [][]byte {
	return m.subResps
}

// ---- proto/memcache/proxy_conn.go, merge.go (trimmed) ----

type proxyConn struct {
	bw *bufio.Writer
}

// Merge the response and set the response into subResps
func (*proxyConn) Merge(m *Message) error {
	mcr, ok := m.Request().(*MCRequest)
	if !ok {
		m.AddSubResps([]byte("SERVER_ERROR bad request"), crlfBytes)
		return nil
	}
	m.AddSubResps(bytes.TrimSuffix(mcr.data, endBytes), endBytes)
	return nil
}

// Encode encode response and write into writer.
func (p *proxyConn) Encode(m *Message) (err error) {
	_ = p.Merge(m)
	for _, item := range m.SubResps() {
		_, _ = p.bw.Write(item)
	}
	return p.bw.Flush()
}

// ---- proxy/handler.go (trimmed) ----

func handle(p *proxyConn, rounds [][]*MCRequest) {
	msgs := []*Message{GetMsg()}
	defer func() {
		for _, msg := range msgs {
			msg.Clear()
		}
	}()
	for _, reqs := range rounds {
		for i, r := range reqs {
			if i < len(msgs) {
				msgs[i].setRequest(r)
			}
		}
		for _, msg := range msgs {
			if err := p.Encode(msg); err != nil {
				return
			}
		}
		// release resource
		for _, msg := range msgs {
			msg.Reset()
		}
	}
}
