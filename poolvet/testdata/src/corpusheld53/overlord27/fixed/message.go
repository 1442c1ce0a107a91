// Source: https://github.com/bilibili/overlord/pull/27 ("Fix reqpool"),
// commits efabcd28fb4a3051bd2c307a045f097c7be59c5a ("fix req reset into poll")
// and f52bed3e50cea58314e6c5091da8876196b10321 ("fix reput req into pool").
//
// Bug: proto.Message and the memcache requests are pooled (sync.Pool). A
// multi-key command is split by Batch() into sub messages taken from the
// message pool, each sub sharing one Request of the parent. Message.Clear()
// put the parent's requests back, then for every sub called s.Clear() --
// which put the same shared requests back a second time and ended with
// PutMsg(s) -- and then called PutMsg(s) again. So every sub message went
// into msgPool twice and every request of a batch went into the request pool
// twice; two later Gets received the same object.
// Fix: the extra PutMsg(s) was removed (efabcd2) and the sub is no longer
// Clear()ed but only reset and detached from the shared requests, so nothing
// is re-put (f52bed3, "NOTE:do not reput req into pool").
//
// Check: doubleput (at s.Clear(), which puts the parent's requests and the
// sub a first/second time, and at PutMsg(s), which puts the sub again)
package fixed

import (
	"sync"
	"time"
)

var defaultTime = time.Now()

// CacheType memcache or redis
type CacheType string

// Cache types.
const (
	CacheTypeUnknown  CacheType = "unknown"
	CacheTypeMemcache CacheType = "memcache"
)

// Request request interface.
type Request interface {
	Cmd() []byte
	Key() []byte
	Put()
}

// ---- proto/memcache/request.go ----

var reqPool = &sync.Pool{
	New: func() interface{} {
		return NewReq()
	},
}

// MCRequest is a memcache request.
type MCRequest struct {
	rTp  string
	key  []byte
	data []byte
}

// GetReq get the req from pool
func GetReq() *MCRequest {
	return reqPool.Get().(*MCRequest)
}

// NewReq return new mc req.
func NewReq() *MCRequest {
	return &MCRequest{}
}

// Put put req back to pool.
func (r *MCRequest) Put() {
	r.data = nil
	r.rTp = ""
	r.key = nil
	reqPool.Put(r)
}

// Cmd get Msg cmd.
func (r *MCRequest) Cmd() []byte { return []byte(r.rTp) }

// Key get Msg key.
func (r *MCRequest) Key() []byte { return r.key }

// ---- proto/message.go ----

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
	Type CacheType

	req  []Request
	reqn int
	subs []*Message
	// Start Time, Write Time, ReadTime, EndTime
	st, wt, rt, et time.Time
	err            error
}

// NewMessage will create new message object.
func NewMessage() *Message {
	return &Message{}
}

// Reset will clean the msg
func (m *Message) Reset() {
	m.Type = CacheTypeUnknown
	m.reqn = 0
	m.st, m.wt, m.rt, m.et = defaultTime, defaultTime, defaultTime, defaultTime
	m.err = nil
}

// Clear will clean the msg
func (m *Message) Clear() {
	m.Reset()
	// put pool
	for _, r := range m.req {
		r.Put()
	}
	m.req = nil
	for _, s := range m.subs {
		// NOTE:do not reput req into pool
		s.Reset()
		s.req = nil
		s.subs = nil
	}
	m.subs = nil
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

// Batch returns sub Msg if is batch.
func (m *Message) Batch() []*Message {
	slen := m.reqn
	if slen == 0 {
		return nil
	}
	var min = minInt(len(m.subs), slen)
	for i := 0; i < min; i++ {
		m.subs[i].Type = m.Type
		m.subs[i].setRequest(m.req[i])
	}
	delta := slen - len(m.subs)
	for i := 0; i < delta; i++ {
		msg := GetMsg()
		msg.Type = m.Type
		msg.setRequest(m.req[min+i])
		m.subs = append(m.subs, msg)
	}
	return m.subs[:slen]
}

func minInt(a, b int) int {
	if a > b {
		return b
	}
	return a
}

// ---- proxy/handler.go (trimmed) ----

// decodeMultiGet is what the memcache ProxyConn does for "get k1 k2 ...".
func decodeMultiGet(m *Message, keys [][]byte) {
	m.Type = CacheTypeMemcache
	for _, k := range keys {
		r := GetReq()
		r.rTp = "get"
		r.key = k
		m.WithRequest(r)
	}
}

func handle(keys [][]byte, dispatch func([]*Message)) {
	messages := []*Message{GetMsg()}
	defer func() {
		for _, msg := range messages {
			msg.Clear()
		}
	}()
	decodeMultiGet(messages[0], keys)
	if messages[0].reqn > 1 {
		dispatch(messages[0].Batch())
	}
}
