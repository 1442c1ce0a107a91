// Package bug reproduces the shape of yarpc/yarpc-go#1400
// (https://github.com/yarpc/yarpc-go/pull/1400, "Revert request buffer
// corruption bug"; the bug came with #1389 and the pooling was brought back
// correctly in #1423): the envelope-agnostic Thrift inbound factored request
// decoding into a shared helper, handleRequest. The helper read the request
// body into a buffer from the buffer pool with a deferred Put and returned
// the decoded wire value. Thrift wire values are lazy: lists, sets and maps
// keep pointing into the bytes they were decoded from. So the value the
// helper returned still referenced the pooled buffer, which went back to the
// pool as the helper returned; the handler then read it while another request
// was already reusing the buffer, and requests were corrupted. The fix keeps
// the buffer in the handler (Get/defer Put there) and passes it to the
// decoding helper, so it outlives the handler call.
//
// Check: useafterput (handleRequest returns reqValue, which aliases the
// buffer its deferred Put hands back to the pool).
package bug

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"sync"
)

const maxPooledBuffer = 1 << 20

var _pool = sync.Pool{
	New: func() interface{} {
		return &bytes.Buffer{}
	},
}

// getBuffer takes a buffer from the pool.
func getBuffer() *bytes.Buffer {
	return _pool.Get().(*bytes.Buffer)
}

// putBuffer resets buf and returns it to the pool.
func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	_pool.Put(buf)
}

// EnvelopeType is the Thrift message type.
type EnvelopeType byte

const (
	Call   EnvelopeType = 1
	Reply  EnvelopeType = 2
	OneWay EnvelopeType = 4
)

// Value is a lazily decoded Thrift value: its list items are decoded from
// raw only when they are read.
type Value struct {
	raw []byte
}

// ForEachItem decodes the list items on demand.
func (v Value) ForEachItem(f func(item []byte) error) error {
	rest := v.raw
	for len(rest) > 0 {
		n := int(rest[0])
		if 1+n > len(rest) {
			return errors.New("truncated list item")
		}
		if err := f(rest[1 : 1+n]); err != nil {
			return err
		}
		rest = rest[1+n:]
	}
	return nil
}

// Envelope wraps a value with the message header.
type Envelope struct {
	Type  EnvelopeType
	SeqID int32
	Value Value
}

// Responder encodes the response the way the request was framed.
type Responder interface {
	EncodeResponse(v []byte, t EnvelopeType, w io.Writer) error
}

type envelopeResponder struct{ seqID int32 }

func (r envelopeResponder) EncodeResponse(v []byte, t EnvelopeType, w io.Writer) error {
	var hdr [5]byte
	hdr[0] = byte(t)
	binary.BigEndian.PutUint32(hdr[1:], uint32(r.seqID))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(v)
	return err
}

type noEnvelopeResponder struct{}

func (noEnvelopeResponder) EncodeResponse(v []byte, _ EnvelopeType, w io.Writer) error {
	_, err := w.Write(v)
	return err
}

func decodeEnveloped(data []byte) (Envelope, error) {
	if len(data) < 5 {
		return Envelope{}, errors.New("short envelope")
	}
	return Envelope{
		Type:  EnvelopeType(data[0]),
		SeqID: int32(binary.BigEndian.Uint32(data[1:5])),
		Value: Value{raw: data[5:]}, // no copy: lazily decoded later
	}, nil
}

// InboundCall carries request metadata.
type InboundCall struct {
	Caller string
}

// Request is a transport request.
type Request struct {
	Caller string
	Body   io.Reader
}

// UnaryHandler is the generated service handler.
type UnaryHandler func(ctx context.Context, body Value) ([]byte, error)

type thriftUnaryHandler struct {
	UnaryHandler UnaryHandler
	Enveloping   bool
}

var errUnexpectedEnvelopeType = errors.New("unexpected envelope type")

// Handle serves one unary request.
func (t thriftUnaryHandler) Handle(ctx context.Context, treq *Request, rw io.Writer) error {
	call, reqValue, responder, err := handleRequest(treq, Call, t.Enveloping)
	if err != nil {
		return err
	}
	_ = call

	res, err := t.UnaryHandler(ctx, reqValue)
	if err != nil {
		return err
	}
	return responder.EncodeResponse(res, Reply, rw)
}

// handleRequest decodes the request, regardless of enveloping.
func handleRequest(
	treq *Request,
	reqEnvelopeType EnvelopeType,
	enveloping bool,
) (
	call *InboundCall,
	reqValue Value,
	responder Responder,
	err error,
) {
	call = &InboundCall{Caller: treq.Caller}

	buf := getBuffer()
	defer putBuffer(buf)
	if _, err = buf.ReadFrom(treq.Body); err != nil {
		return
	}

	if enveloping {
		var envelope Envelope
		envelope, err = decodeEnveloped(buf.Bytes())
		if err != nil {
			return
		}
		if envelope.Type != reqEnvelopeType {
			err = errUnexpectedEnvelopeType
			return
		}
		reqValue = envelope.Value
		responder = envelopeResponder{seqID: envelope.SeqID}
	} else {
		reqValue = Value{raw: buf.Bytes()}
		responder = noEnvelopeResponder{}
	}

	return // want `useafterput`
}
