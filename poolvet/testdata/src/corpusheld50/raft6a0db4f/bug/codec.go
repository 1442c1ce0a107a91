package bug

import (
	"encoding/json"
	"io"
)

// Minimal stand-in for github.com/hashicorp/go-msgpack/v2/codec: an encoder
// and a decoder that keep per-stream state (the decoder buffers what it has
// read ahead) and can be pointed at a new stream with Reset.

type BasicHandle struct {
	TimeNotBuiltin bool
}

type MsgpackHandle struct {
	BasicHandle
}

type Encoder struct {
	h   *MsgpackHandle
	enc *json.Encoder
}

func NewEncoder(w io.Writer, h *MsgpackHandle) *Encoder {
	return &Encoder{h: h, enc: json.NewEncoder(w)}
}

func (e *Encoder) Reset(w io.Writer) { e.enc = json.NewEncoder(w) }

func (e *Encoder) Encode(v interface{}) error { return e.enc.Encode(v) }

type Decoder struct {
	h   *MsgpackHandle
	dec *json.Decoder
}

func NewDecoder(r io.Reader, h *MsgpackHandle) *Decoder {
	return &Decoder{h: h, dec: json.NewDecoder(r)}
}

func (d *Decoder) Reset(r io.Reader) { d.dec = json.NewDecoder(r) }

func (d *Decoder) Decode(v interface{}) error { return d.dec.Decode(v) }
