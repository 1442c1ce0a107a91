// Package fixed is the fixed twin of wetware/pkg#66
// (https://github.com/wetware/pkg/pull/66, "Fix zeroed-out pubsub messages
// due to use-after-free of capnp segments"): once Cap'n Proto started
// pooling RPC arenas and zeroing them between uses, the pubsub handler's
// habit of passing the message bytes it was called with straight to its
// subscribers' channel showed up as published messages full of null bytes:
// the RPC layer released the call's arena when the handler returned, while
// the subscriber still held a slice into it. The fix copies the data out of
// the arena. The pooled arena is modeled with a plain sync.Pool.
//
// Fix (as in the PR): the handler copies the message out of the arena
// before handing it to the subscriber. No check should report here.
package fixed

import (
	"encoding/binary"
	"errors"
	"sync"
)

const maxArena = 1 << 20

type arena struct {
	buf []byte
}

var arenaPool = sync.Pool{New: func() any { return &arena{buf: make([]byte, 0, 4096)} }}

func getArena() *arena {
	a := arenaPool.Get().(*arena)
	a.buf = a.buf[:0]
	return a
}

// releaseArena zeroes the arena (as capnp does between reuses) and pools it.
func releaseArena(a *arena) {
	if cap(a.buf) > maxArena {
		return
	}
	clear(a.buf)
	a.buf = a.buf[:0]
	arenaPool.Put(a)
}

// handler is the topic's server side: every published message goes to the
// subscriber's channel.
type handler struct {
	ms chan<- []byte
}

func (h handler) Send(msg []byte) {
	// Copy out of the RPC arena: it is released when Send returns.
	h.ms <- append([]byte(nil), msg...)
}

var errShortFrame = errors.New("short frame")

// dispatch plays the RPC layer: it decodes a call into a pooled arena, runs
// the handler, and releases the call's arena when the handler returns.
func dispatch(h handler, frame []byte) error {
	a := getArena()
	a.buf = append(a.buf, frame...)
	if len(a.buf) < 4 {
		releaseArena(a)
		return errShortFrame
	}
	n := int(binary.BigEndian.Uint32(a.buf))
	if n > len(a.buf)-4 {
		releaseArena(a)
		return errShortFrame
	}
	msg := a.buf[4 : 4+n]
	h.Send(msg)
	releaseArena(a)
	return nil
}
