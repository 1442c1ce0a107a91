// Package bug reproduces the shape of coder/websocket#418
// (https://github.com/coder/websocket/issues/418, "Buffer pooling is
// (currently) an anti-pattern"): the internal bpool package keeps
// *bytes.Buffer values in a sync.Pool and its Put only resets them. The
// wsjson/wspb helpers encode whole messages into those buffers, so one
// oversized message leaves a buffer of that size in the pool, and buffers
// only ever grow (golang/go#23199).
//
// Check: unbounded (bytes.Buffer grown by an encoder of messages of any
// size, Reset and put back by a Put helper without a capacity bound).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

var pool sync.Pool

// Get returns a buffer from the pool or a new one.
func Get() *bytes.Buffer {
	b := pool.Get()
	if b == nil {
		return &bytes.Buffer{}
	}
	return b.(*bytes.Buffer)
}

// Put returns a buffer into the pool.
func Put(b *bytes.Buffer) {
	b.Reset()
	pool.Put(b) // want `unbounded`
}

// Conn is the part of a websocket connection the helper needs.
type Conn interface {
	WriteText(p []byte) error
}

// WriteJSON encodes v as JSON and sends it as one text message.
func WriteJSON(c Conn, v interface{}) error {
	b := Get()
	defer Put(b)

	if err := json.NewEncoder(b).Encode(v); err != nil {
		return err
	}
	return c.WriteText(b.Bytes())
}
