// Package bug reproduces the shape of centrifugal/centrifuge commit e33dcc85
// (https://github.com/centrifugal/centrifuge/commit/e33dcc85922b26ca5c9aad02b7a1e2adaa49d150):
// "fix putting reply encoder into wrong pool". The package keeps one sync.Pool
// of reply encoders per wire encoding. PutReplyEncoder picks the JSON pool when
// the connection speaks JSON, but the branch has no return, so control falls
// through and the very same encoder is put a second time, into the protobuf
// pool. Every JSON connection therefore leaves each encoder in two pools; two
// later Gets can hand the same encoder (and its buffer) to two connections, and a
// protobuf connection can get a JSON encoder. The request loop in
// handleClientData releases the encoder on every exit path through this helper,
// which hides the fall-through. The fix adds the missing return.
// Check: doubleput (the second Put in PutReplyEncoder, into the protobuf pool).
package bug

import (
	"bytes"
	"errors"
	"sync"
)

// Encoding is the wire format of a client connection.
type Encoding string

const (
	EncodingJSON     Encoding = "json"
	EncodingProtobuf Encoding = "protobuf"
)

// ReplyEncoder collects replies for one batch of client commands.
type ReplyEncoder interface {
	Reset()
	Encode(rep []byte) error
	Finish() []byte
}

// JSONReplyEncoder writes newline separated JSON replies.
type JSONReplyEncoder struct {
	buffer bytes.Buffer
}

func NewJSONReplyEncoder() *JSONReplyEncoder { return &JSONReplyEncoder{} }

func (e *JSONReplyEncoder) Reset() { e.buffer.Reset() }

func (e *JSONReplyEncoder) Encode(rep []byte) error {
	e.buffer.Write(rep)
	e.buffer.WriteByte('\n')
	return nil
}

func (e *JSONReplyEncoder) Finish() []byte {
	return append([]byte(nil), e.buffer.Bytes()...)
}

// ProtobufReplyEncoder writes length prefixed replies.
type ProtobufReplyEncoder struct {
	buffer bytes.Buffer
}

func NewProtobufReplyEncoder() *ProtobufReplyEncoder { return &ProtobufReplyEncoder{} }

func (e *ProtobufReplyEncoder) Reset() { e.buffer.Reset() }

func (e *ProtobufReplyEncoder) Encode(rep []byte) error {
	e.buffer.WriteByte(byte(len(rep)))
	e.buffer.Write(rep)
	return nil
}

func (e *ProtobufReplyEncoder) Finish() []byte {
	return append([]byte(nil), e.buffer.Bytes()...)
}

var (
	jsonReplyEncoderPool     sync.Pool
	protobufReplyEncoderPool sync.Pool
)

// GetReplyEncoder takes an encoder for enc from its pool.
func GetReplyEncoder(enc Encoding) ReplyEncoder {
	if enc == EncodingJSON {
		e := jsonReplyEncoderPool.Get()
		if e == nil {
			return NewJSONReplyEncoder()
		}
		encoder := e.(ReplyEncoder)
		encoder.Reset()
		return encoder
	}
	e := protobufReplyEncoderPool.Get()
	if e == nil {
		return NewProtobufReplyEncoder()
	}
	encoder := e.(ReplyEncoder)
	encoder.Reset()
	return encoder
}

// PutReplyEncoder gives an encoder back to the pool of enc.
func PutReplyEncoder(enc Encoding, e ReplyEncoder) {
	if enc == EncodingJSON {
		jsonReplyEncoderPool.Put(e)
		return
	}
	protobufReplyEncoderPool.Put(e)
}

// Transport is the connection a batch of commands arrived on.
type Transport interface {
	Encoding() Encoding
	Send(data []byte) error
	Close()
}

var errBadRequest = errors.New("bad request")

func splitCommands(data []byte) [][]byte {
	return bytes.Split(data, []byte{'\n'})
}

func handle(cmd []byte) ([]byte, error) {
	if len(cmd) == 0 {
		return nil, errBadRequest
	}
	return cmd, nil
}

// handleClientData runs every command of one frame and writes the replies.
func handleClientData(transport Transport, data []byte) bool {
	enc := transport.Encoding()
	encoder := GetReplyEncoder(enc)

	for _, cmd := range splitCommands(data) {
		rep, err := handle(cmd)
		if err != nil {
			transport.Close()
			PutReplyEncoder(enc, encoder)
			return false
		}
		if err := encoder.Encode(rep); err != nil {
			transport.Close()
			PutReplyEncoder(enc, encoder)
			return false
		}
	}

	if err := transport.Send(encoder.Finish()); err != nil {
		transport.Close()
		PutReplyEncoder(enc, encoder)
		return false
	}

	PutReplyEncoder(enc, encoder)
	return true
}
