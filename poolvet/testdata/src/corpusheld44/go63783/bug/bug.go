// Package bug reproduces the shape of golang/go#63783
// (https://github.com/golang/go/issues/63783, fixed in golang/net commit
// 0526b49b345664cadb8ea67dd4b7c02964c55b3a, CL 538615, "quic: fix data race
// caused by aliased DCID"): received datagrams come from a sync.Pool. When a
// client's first Initial packet arrives, the listener creates a server
// connection and passes it the destination connection ID, a slice of the
// pooled datagram's buffer. initServer queued a connection-map update closure
// that kept that slice; the closure only runs later on the listener's receive
// loop, after the connection has processed the datagram and recycled it back
// into the pool, so the key is read from a buffer that another datagram is
// being read into. The fix copies the ID before retaining it.
// Check: useafterput (report at the read of the aliased ID inside the queued
// update, which runs after the datagram was recycled).
package bug

import (
	"sync"
)

const maxUDPPayloadSize = 1472

type datagram struct {
	b    []byte
	addr string
}

var datagramPool = sync.Pool{
	New: func() any {
		return &datagram{
			b: make([]byte, maxUDPPayloadSize),
		}
	},
}

func newDatagram() *datagram {
	m := datagramPool.Get().(*datagram)
	m.b = m.b[:cap(m.b)]
	return m
}

func (m *datagram) recycle() {
	if cap(m.b) != maxUDPPayloadSize {
		return
	}
	m.addr = ""
	datagramPool.Put(m)
}

func cloneBytes(b []byte) []byte {
	n := make([]byte, len(b))
	copy(n, b)
	return n
}

type connID struct {
	seq int64
	cid []byte
}

type connsMap struct {
	byConnID map[string]*Conn

	updateMu sync.Mutex
	updates  []func(*connsMap)
}

func (m *connsMap) addConnID(c *Conn, cid []byte) {
	m.byConnID[string(cid)] = c
}

// updateConnIDs queues f to run on the listener's receive loop.
func (m *connsMap) updateConnIDs(f func(*connsMap)) {
	m.updateMu.Lock()
	defer m.updateMu.Unlock()
	m.updates = append(m.updates, f)
}

func (m *connsMap) applyUpdates() {
	m.updateMu.Lock()
	defer m.updateMu.Unlock()
	for _, f := range m.updates {
		f(m)
	}
	m.updates = m.updates[:0]
}

type connIDState struct {
	local []connID
}

func (s *connIDState) initServer(c *Conn, dstConnID []byte) {
	// The client-chosen transient ID, remembered so that later packets
	// sent to it still reach this connection.
	s.local = append(s.local, connID{
		seq: -1,
		cid: cloneBytes(dstConnID),
	})
	locid := []byte{byte(len(c.listener.connsMap.byConnID)), 1, 2, 3, 4, 5, 6, 7}
	s.local = append(s.local, connID{
		seq: 0,
		cid: locid,
	})
	c.listener.connsMap.updateConnIDs(func(conns *connsMap) {
		conns.addConnID(c, dstConnID) // want `useafterput`
		conns.addConnID(c, locid)
	})
}

type Conn struct {
	listener    *Listener
	connIDState connIDState
	msgc        chan *datagram
}

func (l *Listener) newConn(originalDstConnID []byte) *Conn {
	c := &Conn{listener: l, msgc: make(chan *datagram, 1)}
	c.connIDState.initServer(c, originalDstConnID)
	return c
}

// sendMsg hands m to the connection; the connection owns it afterwards.
func (c *Conn) sendMsg(m *datagram) {
	c.msgc <- m
}

// loop processes one datagram and returns its buffer to the pool.
func (c *Conn) loop() {
	m := <-c.msgc
	_ = len(m.b)
	m.recycle()
}

type Listener struct {
	connsMap connsMap
}

func dstConnIDForDatagram(b []byte) ([]byte, bool) {
	if len(b) < 6 {
		return nil, false
	}
	n := int(b[5])
	if len(b) < 6+n {
		return nil, false
	}
	return b[6 : 6+n], true
}

func (l *Listener) handleDatagram(m *datagram) {
	dstConnID, ok := dstConnIDForDatagram(m.b)
	if !ok {
		m.recycle()
		return
	}
	if c := l.connsMap.byConnID[string(dstConnID)]; c != nil {
		c.sendMsg(m)
		return
	}
	c := l.newConn(dstConnID)
	c.sendMsg(m) // don't recycle, sendMsg takes ownership
	c.loop()
}

// Receive handles one datagram and then applies queued map updates, as the
// listener's receive loop does before reading the next datagram.
func (l *Listener) Receive(payload []byte) {
	m := newDatagram()
	n := copy(m.b, payload)
	m.b = m.b[:n]
	l.handleDatagram(m)
	l.connsMap.applyUpdates()
}
