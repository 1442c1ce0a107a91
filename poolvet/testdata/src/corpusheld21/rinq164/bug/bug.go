// Package bug reproduces the shape of rinq/rinq-go#164
// (https://github.com/rinq/rinq-go/issues/164, fixed in commit db275b4 "Do not
// reuse payload that is used inside message header"): packConstraint builds a
// Payload for a notification constraint, defers p.Close(), and stores
// p.Bytes() in the outgoing AMQP message's headers. Bytes() lazily encodes the
// value into a buffer from the shared bufferpool and returns a view of it;
// Close() drops the last reference and puts that buffer back to the pool when
// packConstraint returns, while the message that holds the view has not been
// published yet, so another payload can overwrite the header bytes.
// The fix does not close the payload whose buffer is retained in the header.
// Check: useafterput (a Bytes() view of a pooled buffer is stored in the
// message and outlives the deferred Close that puts the buffer back; report at
// the store).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

// ---- internal/x/bufferpool ----

const maxPooledBuffer = 64 * 1024

var buffers = sync.Pool{New: func() any { return &bytes.Buffer{} }}

func bufferpoolGet() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

func bufferpoolPut(buf *bytes.Buffer) {
	if buf != nil && buf.Cap() <= maxPooledBuffer {
		buf.Reset()
		buffers.Put(buf)
	}
}

// ---- rinq.Payload ----

type payloadData struct {
	readMutex  sync.Mutex
	writeMutex sync.Mutex
	refCount   uint
	buffer     *bytes.Buffer
	value      any
	hasValue   bool
}

// Payload is an immutable application value; it must be closed when no
// longer required. Bytes() is invalidated by Close().
type Payload struct {
	data *payloadData
}

func NewPayload(v any) *Payload {
	if v == nil {
		return nil
	}
	return &Payload{&payloadData{value: v, hasValue: true, refCount: 1}}
}

func (p *Payload) Bytes() []byte {
	if p == nil || p.data == nil {
		return nil
	}

	p.data.readMutex.Lock()
	defer p.data.readMutex.Unlock()

	if p.data.buffer != nil {
		return p.data.buffer.Bytes()
	}

	p.data.writeMutex.Lock()
	defer p.data.writeMutex.Unlock()

	buffer := bufferpoolGet()
	if err := json.NewEncoder(buffer).Encode(p.data.value); err != nil {
		panic(err)
	}
	p.data.buffer = buffer

	return buffer.Bytes()
}

// Close releases the resources held by the payload.
func (p *Payload) Close() {
	if p == nil || p.data == nil {
		return
	}

	data := p.data
	p.data = nil

	data.writeMutex.Lock()
	defer data.writeMutex.Unlock()

	data.refCount--

	if data.refCount == 0 && data.buffer != nil {
		bufferpoolPut(data.buffer)
		data.buffer = nil
	}
}

// ---- notifyamqp ----

type Table map[string]any

type Publishing struct {
	Headers Table
	Type    string
	Body    []byte
}

type Constraint map[string]string

const constraintHeader = "c"

func packConstraint(msg *Publishing, con Constraint) {
	p := NewPayload(con)
	defer p.Close()

	if msg.Headers == nil {
		msg.Headers = Table{}
	}

	msg.Headers[constraintHeader] = p.Bytes() // want `useafterput`
}
