// Package bug reproduces the shape of DataDog/datadog-trace-agent#206
// (https://github.com/DataDog/datadog-trace-agent/pull/206): the trace agent
// keeps decoders for incoming payloads in a DecoderPool (a pair of buffered
// channels, one per content type). Each decoder reads the whole request body
// into its bytes.Buffer, which grows to the largest payload it has seen.
// Release sent every decoder back into its channel regardless of how big its
// buffer had become, so a few huge payloads left the pool holding huge
// buffers. The fix makes Release drop decoders whose buffer capacity exceeds
// a maximum.
//
// Check: unbounded (Release returns decoders with an arbitrarily grown
// buffer to the pool; one report per pool channel).
package bug

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// average size of a buffer; the payloads are usually big, so decoders start
// with a buffer that rarely needs to grow.
const minBufferSize = 512

// readAll empties dest and copies source into it.
func readAll(source io.Reader, dest *bytes.Buffer) (err error) {
	defer func() {
		e := recover()
		if e == nil {
			return
		}
		if panicErr, ok := e.(error); ok && panicErr == bytes.ErrTooLarge {
			err = panicErr
		} else {
			panic(e)
		}
	}()
	dest.Reset()
	_, err = dest.ReadFrom(source)
	return err
}

// ClientDecoder decodes one payload format.
type ClientDecoder interface {
	Decode(body io.Reader, v interface{}) error
	ContentType() string
}

type jsonDecoder struct {
	decoder     *json.Decoder
	buf         *bytes.Buffer
	contentType string
}

type msgpackDecoder struct {
	buf         *bytes.Buffer
	contentType string
}

func newJSONDecoder() *jsonDecoder {
	buf := bytes.NewBuffer(make([]byte, 0, minBufferSize))
	return &jsonDecoder{
		buf:         buf,
		decoder:     json.NewDecoder(buf),
		contentType: "application/json",
	}
}

func (d *jsonDecoder) Decode(body io.Reader, v interface{}) error {
	if err := readAll(body, d.buf); err != nil {
		return err
	}
	return d.decoder.Decode(v)
}

func (d *jsonDecoder) ContentType() string { return d.contentType }

func newMsgpackDecoder() *msgpackDecoder {
	buf := bytes.NewBuffer(make([]byte, 0, minBufferSize))
	return &msgpackDecoder{buf: buf, contentType: "application/msgpack"}
}

func (d *msgpackDecoder) Decode(body io.Reader, v interface{}) error {
	if err := readAll(body, d.buf); err != nil {
		return err
	}
	raw, ok := v.(*[]byte)
	if !ok {
		return errors.New("no implementation for this interface")
	}
	*raw = append((*raw)[:0], d.buf.Bytes()...)
	return nil
}

func (d *msgpackDecoder) ContentType() string { return d.contentType }

// DecoderPool shares decoders (and their buffers) between requests.
type DecoderPool struct {
	json    chan ClientDecoder
	msgpack chan ClientDecoder
}

// NewDecoderPool returns a pool holding up to size decoders per type.
func NewDecoderPool(size int) *DecoderPool {
	return &DecoderPool{
		json:    make(chan ClientDecoder, size),
		msgpack: make(chan ClientDecoder, size),
	}
}

// Borrow takes a decoder for contentType, creating one if the pool is empty.
func (p *DecoderPool) Borrow(contentType string) ClientDecoder {
	var decoder ClientDecoder
	switch contentType {
	case "application/msgpack":
		select {
		case decoder = <-p.msgpack:
		default:
			decoder = newMsgpackDecoder()
		}
	default:
		select {
		case decoder = <-p.json:
		default:
			decoder = newJSONDecoder()
		}
	}
	return decoder
}

// Release gives a decoder back; if the pool is full the decoder is dropped.
func (p *DecoderPool) Release(dec ClientDecoder) {
	switch dec.ContentType() {
	case "application/msgpack":
		select {
		case p.msgpack <- dec: // want `unbounded`
		default:
		}
	default:
		select {
		case p.json <- dec: // want `unbounded`
		default:
		}
	}
}

// HandleTraces decodes one request body with a pooled decoder.
func HandleTraces(p *DecoderPool, contentType string, body io.Reader, v interface{}) error {
	dec := p.Borrow(contentType)
	defer p.Release(dec)
	return dec.Decode(body, v)
}
