// Package bug reproduces the shape of pion/webrtc#1516 (https://github.com/pion/webrtc/issues/1516):
// to cut allocations in DataChannel.readLoop a package-level sync.Pool of read
// buffers was added (commit 159ba5aca3b96b85f7a653329102ea12046a1b1f). The pool's
// New makes a plain []byte and the loop puts the slice itself back, on the error
// path and after each message is copied out, so every Put boxes the slice header
// into an interface (the linter warning was silenced with a nolint pragma). The
// pool was later removed and the loop reuses one buffer (commit d851a44e).
// Check: nonpointer (a []byte slice put into a sync.Pool); fixed twin: the
// project's fix, one buffer allocated per loop and no pool.
package bug

import (
	"errors"
	"io"
	"sync"
)

const dataChannelBufferSize = 16384

type DataChannelMessage struct {
	IsString bool
	Data     []byte
}

type rawChannel interface {
	ReadDataChannel(p []byte) (int, bool, error)
}

type DataChannel struct {
	mu          sync.Mutex
	state       string
	dataChannel rawChannel
	onMsg       func(DataChannelMessage)
	onErr       func(error)
}

func (d *DataChannel) setReadyState(s string) {
	d.mu.Lock()
	d.state = s
	d.mu.Unlock()
}

func (d *DataChannel) onError(err error) {
	d.mu.Lock()
	h := d.onErr
	d.mu.Unlock()
	if h != nil {
		go h(err)
	}
}

func (d *DataChannel) onMessage(m DataChannelMessage) {
	d.mu.Lock()
	h := d.onMsg
	d.mu.Unlock()
	if h != nil {
		h(m)
	}
}

func (d *DataChannel) readLoop() {
	buffer := make([]byte, dataChannelBufferSize)
	for {
		n, isString, err := d.dataChannel.ReadDataChannel(buffer)
		if err != nil {
			d.setReadyState("closed")
			if !errors.Is(err, io.EOF) {
				d.onError(err)
			}
			return
		}

		m := DataChannelMessage{Data: make([]byte, n), IsString: isString}
		copy(m.Data, buffer[:n])

		d.onMessage(m)
	}
}
