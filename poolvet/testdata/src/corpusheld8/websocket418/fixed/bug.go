// Package fixed is the fixed twin of corpusheld8/websocket418: the obvious
// fix suggested in the discussion, a hard capacity limit in Put, so a
// buffer grown by one huge message is left to the GC.
package fixed

import (
	"bytes"
	"encoding/json"
	"sync"
)

const maxPooledCap = 64 << 10

var pool sync.Pool

func Get() *bytes.Buffer {
	b := pool.Get()
	if b == nil {
		return &bytes.Buffer{}
	}
	return b.(*bytes.Buffer)
}

func Put(b *bytes.Buffer) {
	if b.Cap() > maxPooledCap {
		return
	}
	b.Reset()
	pool.Put(b)
}

type Conn interface {
	WriteText(p []byte) error
}

func WriteJSON(c Conn, v interface{}) error {
	b := Get()
	defer Put(b)

	if err := json.NewEncoder(b).Encode(v); err != nil {
		return err
	}
	return c.WriteText(b.Bytes())
}
