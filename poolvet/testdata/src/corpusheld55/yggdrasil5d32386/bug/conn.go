// Source: https://github.com/yggdrasil-network/yggdrasil-go/commit/5d323861f03dc178f18362992d901d5945b392f1
// ("properly fix the memory errors, it was caused by a function returning and
// PutBytes-ing a buffer before a worker had a chance to decrypt the buffer, so
// it would GetBytes the same buffer by dumb luck and then get an illegal
// overlap").
//
// Bug: Conn.Read takes a received packet whose Payload came from the
// util.GetBytes/PutBytes byte store (a channel-backed free list), defers
// util.PutBytes(p.Payload), and hands a closure that decrypts p.Payload to the
// session worker goroutine. If the deadline timer fires while waiting for the
// worker, Read returns, the deferred PutBytes puts p.Payload back into the
// store while the worker is still decrypting it, and the next GetBytes hands
// the same memory to someone else.
//
// Fix: always wait for the worker to finish (<-done) before returning, so the
// deferred PutBytes only runs once the worker no longer uses the payload.
//
// Check: useafterput (the timeout return while the worker still uses
// p.Payload lets the deferred PutBytes recycle memory the worker is reading)
package bug

import (
	"errors"
	"time"
)

// ---- util ----

// This is used to buffer recently used slices of bytes, to prevent allocations in the hot loops.
var byteStore = make(chan []byte, 32)

// Gets an empty slice from the byte store, if one is available, or else returns a new nil slice.
func GetBytes() []byte {
	select {
	case bs := <-byteStore:
		return bs[:0]
	default:
		return nil
	}
}

// Puts a slice in the store, if there's room, or else returns and lets the slice get collected.
func PutBytes(bs []byte) {
	select {
	case byteStore <- bs:
	default:
	}
}

func TimerStop(t *time.Timer) bool {
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	return true
}

// ---- crypto ----

type BoxNonce [24]byte
type BoxSharedKey [32]byte

func BoxOpen(shared *BoxSharedKey, boxed []byte, nonce *BoxNonce) ([]byte, bool) {
	out := GetBytes()
	for i, c := range boxed {
		out = append(out, c^shared[i%len(shared)]^nonce[i%len(nonce)])
	}
	return out, len(boxed) > 0
}

// ---- session / conn ----

type wire_trafficPacket struct {
	Nonce   BoxNonce
	Payload []byte
}

type sessionInfo struct {
	sharedSesKey BoxSharedKey
	theirNonce   BoxNonce
	time         time.Time
	bytesRecvd   uint64
	worker       chan func()              // Channel to send work to the session worker
	recv         chan *wire_trafficPacket // Received packets go here, picked up by the associated Conn
}

func (sinfo *sessionInfo) nonceIsOK(n *BoxNonce) bool { return *n != sinfo.theirNonce }
func (sinfo *sessionInfo) updateNonce(n *BoxNonce)    { sinfo.theirNonce = *n }

type ConnError struct {
	error
	timeout   bool
	temporary bool
}

type Conn struct {
	session      *sessionInfo
	readDeadline time.Time
}

func getDeadlineTimer(deadline time.Time) *time.Timer {
	timer := time.NewTimer(24 * 365 * time.Hour)
	TimerStop(timer)
	if !deadline.IsZero() {
		timer.Reset(time.Until(deadline))
	}
	return timer
}

func (c *Conn) Read(b []byte) (int, error) {
	sinfo := c.session
	timer := getDeadlineTimer(c.readDeadline)
	defer TimerStop(timer)
	if sinfo == nil {
		return 0, errors.New("search failed")
	}
	// Wait for some traffic to come through from the session
	select {
	case <-timer.C:
		return 0, ConnError{errors.New("Timeout"), true, false}
	case p, ok := <-sinfo.recv:
		// If the session is closed then do nothing
		if !ok {
			return 0, errors.New("session is closed")
		}
		defer PutBytes(p.Payload)
		var err error
		done := make(chan struct{})
		workerFunc := func() {
			defer close(done)
			// If the nonce is bad then drop the packet and return an error
			if !sinfo.nonceIsOK(&p.Nonce) {
				err = errors.New("packet dropped due to invalid nonce")
				return
			}
			// Decrypt the packet
			bs, isOK := BoxOpen(&sinfo.sharedSesKey, p.Payload, &p.Nonce)
			defer PutBytes(bs)
			if !isOK {
				err = errors.New("packet dropped due to decryption failure")
				return
			}
			// Return the newly decrypted buffer back to the slice we were given
			copy(b, bs)
			if len(bs) < len(b) {
				b = b[:len(bs)]
			}
			sinfo.updateNonce(&p.Nonce)
			sinfo.time = time.Now()
			sinfo.bytesRecvd += uint64(len(b))
		}
		// Hand over to the session worker
		select { // Send to worker
		case sinfo.worker <- workerFunc:
		case <-timer.C:
			return 0, ConnError{errors.New("Timeout"), true, false}
		}
		select { // Wait for worker to return
		case <-done:
		case <-timer.C:
			return 0, ConnError{errors.New("Timeout"), true, false} // want `useafterput`
		}
		// Something went wrong in the session worker so abort
		if err != nil {
			return 0, err
		}
		return len(b), nil
	}
}
