// Package bug reproduces the shape of Arceliar/ironwood#18
// (https://github.com/Arceliar/ironwood/pull/18, fix commit
// https://github.com/Arceliar/ironwood/commit/e6819a717aaecba718f28cd69f0fb1a5c5362926
// "Fix buffer reuse"): PacketConn.WriteTo copies the payload into a pooled buffer
// and hands it to sessionManager.writeTo. When no session exists yet, writeTo calls
// _bufferAndInit, which parks the buffer in mgr.buffers[key].data until the
// handshake completes, and then immediately returns the same buffer to the pool.
// When the init/ack arrives, _handleInit sends buf.data through doSend, which
// reads it and puts it back to the pool a second time; meanwhile another WriteTo
// may already have taken and overwritten it. The fix drops the Put in writeTo so
// the parked buffer is owned (and later released) by doSend only.
//
// Check: doubleput (the buffer is put back while the session buffer still holds
// it, and doSend will put it again; report at the Put in writeTo).
package bug

import (
	"errors"
	"sync"
	"time"
)

const (
	sessionTrafficOverhead = 64
	maxPeerMessageSize     = 1 << 12
	bufCap                 = sessionTrafficOverhead + maxPeerMessageSize
	sessionTimeout         = time.Minute
)

type edPub [32]byte

// actor stands in for phony.Inbox: Act runs f in the actor's context.
type actor struct{ mu sync.Mutex }

func (a *actor) Act(_ *actor, f func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f()
}

var bufPool = sync.Pool{
	New: func() any {
		b := make([]byte, 0, bufCap)
		return &b
	},
}

func putBuf(bp *[]byte) {
	if cap(*bp) > bufCap {
		return
	}
	*bp = (*bp)[:0]
	bufPool.Put(bp)
}

type wire interface {
	WriteTo(p []byte, dest edPub)
}

type sessionBuffer struct {
	data  *[]byte
	timer *time.Timer
}

type sessionInfo struct {
	actor
	mgr       *sessionManager
	ed        edPub
	sendNonce uint64
	tx        uint64
}

type sessionManager struct {
	actor
	out      wire
	sessions map[edPub]*sessionInfo
	buffers  map[edPub]*sessionBuffer
}

type PacketConn struct {
	mtu      int
	sessions *sessionManager
}

func (pc *PacketConn) WriteTo(p []byte, dest edPub) (int, error) {
	if len(p) > pc.mtu || len(p) > maxPeerMessageSize {
		return 0, errors.New("oversized message")
	}
	bp := bufPool.Get().(*[]byte)
	*bp = append((*bp)[:0], p...)
	pc.sessions.writeTo(dest, bp)
	return len(p), nil
}

func (mgr *sessionManager) writeTo(toKey edPub, msg *[]byte) {
	mgr.Act(nil, func() {
		if info := mgr.sessions[toKey]; info != nil {
			info.doSend(&mgr.actor, msg)
		} else {
			// No session yet: keep the traffic until the handshake is done.
			mgr._bufferAndInit(toKey, msg)
			putBuf(msg) // want `doubleput`
		}
	})
}

func (mgr *sessionManager) _bufferAndInit(toKey edPub, msg *[]byte) {
	buf := mgr.buffers[toKey]
	if buf == nil {
		buf = &sessionBuffer{timer: time.AfterFunc(0, func() {})}
		mgr.buffers[toKey] = buf
	}
	buf.data = msg
	buf.timer.Stop()
	mgr.sendInit(toKey)
	buf.timer = time.AfterFunc(sessionTimeout, func() {
		mgr.Act(nil, func() {
			if b := mgr.buffers[toKey]; b == buf {
				b.timer.Stop()
				delete(mgr.buffers, toKey)
			}
		})
	})
}

func (mgr *sessionManager) sendInit(dest edPub) {
	mgr.out.WriteTo([]byte{1}, dest)
}

// _handleInit runs when the remote side answers the handshake.
func (mgr *sessionManager) _handleInit(pub edPub) {
	info := mgr.sessions[pub]
	if info == nil {
		info = &sessionInfo{mgr: mgr, ed: pub}
		mgr.sessions[pub] = info
	}
	if buf := mgr.buffers[pub]; buf != nil {
		delete(mgr.buffers, pub)
		buf.timer.Stop()
		if buf.data != nil {
			info.doSend(&mgr.actor, buf.data)
		}
	}
}

func (info *sessionInfo) doSend(from *actor, msg *[]byte) {
	info.Act(from, func() {
		defer putBuf(msg)
		info.sendNonce++
		bs := bufPool.Get().(*[]byte)
		defer putBuf(bs)
		*bs = append((*bs)[:0], 2)
		*bs = append(*bs, byte(info.sendNonce))
		*bs = append(*bs, *msg...)
		info.mgr.out.WriteTo(*bs, info.ed)
		info.tx += uint64(len(*msg))
	})
}
