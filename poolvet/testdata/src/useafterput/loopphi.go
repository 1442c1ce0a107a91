package useafterput

import (
	"errors"
	"net"
	"sync"
)

var packetPool = sync.Pool{New: func() any { return new([1500]byte) }}

type receiveFunc func(b []byte) (int, error)

// The receive loop puts its buffer on an error and retries with the same
// buffer; the loop variable is given a new buffer only after a hand-off
// (WireGuard/wireguard-go d2fd0c0).
func receiveLoop(recv receiveFunc, out chan *[1500]byte) {
	buf := packetPool.Get().(*[1500]byte)
	for {
		_, err := recv(buf[:]) // want `buf is used after it was put back into the pool`
		if err != nil {
			packetPool.Put(buf)
			if errors.Is(err, net.ErrClosed) {
				return
			}
			continue
		}
		out <- buf
		buf = packetPool.Get().(*[1500]byte)
	}
}

// The fix: the buffer is put only when the loop ends.
func receiveLoopFixed(recv receiveFunc, out chan *[1500]byte) {
	buf := packetPool.Get().(*[1500]byte)
	for {
		_, err := recv(buf[:])
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				packetPool.Put(buf)
				return
			}
			continue
		}
		out <- buf
		buf = packetPool.Get().(*[1500]byte)
	}
}
