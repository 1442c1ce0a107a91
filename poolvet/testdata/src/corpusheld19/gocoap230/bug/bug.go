// Package bug reproduces the shape of plgd-dev/go-coap#230
// (https://github.com/plgd-dev/go-coap/pull/230, commit 03ad95f5a18699d91b7b2b53e2f7cf0d84f04a73
// "tcp/pool: limit used memory by pool"): the TCP message pool recycles
// *Message values that carry two scratch buffers, rawData (grown by Unmarshal
// to the size of the received frame) and rawMarshalData (grown by Marshal to
// the size of the encoded reply). Reset only truncated them to [:0] and
// ReleaseMessage put the message back, so a single large block transfer left
// messages with multi-megabyte buffers in messagePool. The fix makes Reset
// replace buffers whose capacity exceeds 2 KiB (and caps the pool population).
//
// Check: unbounded (ReleaseMessage puts a *Message whose rawData /
// rawMarshalData grew without bound; Reset only truncates them).
package bug

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
)

var errShort = errors.New("coap: short frame")

// baseMessage is the transport-independent part (message/pool.Message).
type baseMessage struct {
	code  uint8
	token []byte
	body  io.ReadSeeker
}

func (m *baseMessage) Reset() {
	m.code = 0
	m.token = m.token[:0]
	m.body = nil
}

func (m *baseMessage) SetBody(r io.ReadSeeker) { m.body = r }

func (m *baseMessage) ReadBody() ([]byte, error) {
	if m.body == nil {
		return nil, nil
	}
	if _, err := m.body.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(m.body)
}

var messagePool sync.Pool

type Message struct {
	baseMessage

	// local vars
	rawData        []byte
	rawMarshalData []byte

	ctx        context.Context
	isModified bool
}

// Reset clears the message for the next reuse.
func (r *Message) Reset() {
	r.baseMessage.Reset()
	r.rawData = r.rawData[:0]
	r.rawMarshalData = r.rawMarshalData[:0]
	r.isModified = false
}

func (r *Message) Context() context.Context { return r.ctx }

// Unmarshal decodes a frame: code, token length, token, payload.
func (r *Message) Unmarshal(data []byte) (int, error) {
	r.Reset()
	if len(r.rawData) < len(data) {
		r.rawData = append(r.rawData, make([]byte, len(data)-len(r.rawData))...)
	}
	copy(r.rawData, data)
	r.rawData = r.rawData[:len(data)]

	if len(r.rawData) < 2 || len(r.rawData) < 2+int(r.rawData[1]) {
		return 0, errShort
	}
	tkl := int(r.rawData[1])
	r.code = r.rawData[0]
	r.token = append(r.token[:0], r.rawData[2:2+tkl]...)
	if payload := r.rawData[2+tkl:]; len(payload) > 0 {
		r.SetBody(bytes.NewReader(payload))
	}
	return len(data), nil
}

// Marshal encodes the message into rawMarshalData.
func (r *Message) Marshal() ([]byte, error) {
	payload, err := r.ReadBody()
	if err != nil {
		return nil, err
	}
	size := 2 + len(r.token) + len(payload)
	if len(r.rawMarshalData) < size {
		r.rawMarshalData = append(r.rawMarshalData, make([]byte, size-len(r.rawMarshalData))...)
	}
	buf := r.rawMarshalData[:size]
	buf[0] = r.code
	buf[1] = byte(len(r.token))
	n := 2 + copy(buf[2:], r.token)
	copy(buf[n:], payload)
	r.rawMarshalData = buf
	return r.rawMarshalData, nil
}

// AcquireMessage returns an empty Message from the pool.
func AcquireMessage(ctx context.Context) *Message {
	v := messagePool.Get()
	if v == nil {
		return &Message{
			rawData:        make([]byte, 256),
			rawMarshalData: make([]byte, 256),
			ctx:            ctx,
		}
	}
	r := v.(*Message)
	r.Reset()
	r.ctx = ctx
	return r
}

// ReleaseMessage returns req to the pool; req must not be used afterwards.
func ReleaseMessage(req *Message) {
	req.Reset()
	messagePool.Put(req) // want `unbounded`
}

// Echo decodes a request frame and encodes the same content as a reply.
func Echo(ctx context.Context, frame []byte, w io.Writer) error {
	req := AcquireMessage(ctx)
	defer ReleaseMessage(req)
	if _, err := req.Unmarshal(frame); err != nil {
		return err
	}
	out, err := req.Marshal()
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}
