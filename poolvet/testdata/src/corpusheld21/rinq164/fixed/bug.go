// Package bug is the fixed twin of rinq/rinq-go#164
// (https://github.com/rinq/rinq-go/issues/164, commit db275b4): the payload
// whose encoded bytes are kept in the message header is not closed, so its
// buffer is never put back to the pool while the header still refers to it.
// Check: useafterput (clean).
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
	if msg.Headers == nil {
		msg.Headers = Table{}
	}

	// don't close the payload: its internal buffer is retained inside the
	// message header
	msg.Headers[constraintHeader] = NewPayload(con).Bytes()
}
