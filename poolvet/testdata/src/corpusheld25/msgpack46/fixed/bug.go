// Package bug reproduces the shape of vmihailenco/msgpack#46
// (https://github.com/vmihailenco/msgpack/pull/46, commit f37e5a2 "Reset buffer
// before reusing."): the encoder for registered extension types borrows a
// *bytes.Buffer from a package-level sync.Pool, temporarily swaps it in as the
// encoder's writer, encodes the value into it and then emits the ext header
// with buf.Len() followed by buf.Bytes(). Nothing emptied the buffer, neither
// when it was taken nor when the deferred Put gave it back, so the bytes of the
// previous extension value (or of a failed encode) were prepended to the next
// one and the ext length covered both.
//
// Check: noreset. Fixed twin: the buffer is Reset right after it is taken from
// the pool, as the project's fix did.
package bug

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"sync"
)

const (
	fixExt1  byte = 0xd4
	fixExt2  byte = 0xd5
	fixExt4  byte = 0xd6
	fixExt8  byte = 0xd7
	fixExt16 byte = 0xd8
	ext8     byte = 0xc7
	ext16    byte = 0xc8
	ext32    byte = 0xc9
)

const maxExtBufSize = 64 << 10

type writer interface {
	io.Writer
	WriteByte(byte) error
}

type Encoder struct {
	w   writer
	buf []byte
}

type encoderFunc func(*Encoder, reflect.Value) error

var extTypes [128]reflect.Type

var bufferPool = &sync.Pool{
	New: func() interface{} {
		return &bytes.Buffer{}
	},
}

func RegisterExt(id int8, value interface{}) {
	if extTypes[id] != nil {
		panic(fmt.Errorf("ext with id %d is already registered", id))
	}
	extTypes[id] = reflect.TypeOf(value)
}

func makeExtEncoder(id int8, enc encoderFunc) encoderFunc {
	return func(e *Encoder, v reflect.Value) error {
		buf := bufferPool.Get().(*bytes.Buffer)
		defer func() {
			if buf.Cap() <= maxExtBufSize {
				bufferPool.Put(buf)
			}
		}()
		buf.Reset()

		oldw := e.w
		e.w = buf
		err := enc(e, v)
		e.w = oldw

		if err != nil {
			return err
		}

		if err := e.encodeExtLen(buf.Len()); err != nil {
			return err
		}
		if err := e.w.WriteByte(byte(id)); err != nil {
			return err
		}
		return e.write(buf.Bytes())
	}
}

func (e *Encoder) write(b []byte) error {
	_, err := e.w.Write(b)
	return err
}

func (e *Encoder) writeN(code byte, n uint64, size int) error {
	e.buf = e.buf[:0]
	e.buf = append(e.buf, code)
	for i := size - 1; i >= 0; i-- {
		e.buf = append(e.buf, byte(n>>(8*uint(i))))
	}
	return e.write(e.buf)
}

func (e *Encoder) encodeExtLen(l int) error {
	switch {
	case l == 1:
		return e.w.WriteByte(fixExt1)
	case l == 2:
		return e.w.WriteByte(fixExt2)
	case l == 4:
		return e.w.WriteByte(fixExt4)
	case l == 8:
		return e.w.WriteByte(fixExt8)
	case l == 16:
		return e.w.WriteByte(fixExt16)
	case l < 256:
		return e.writeN(ext8, uint64(l), 1)
	case l < 65536:
		return e.writeN(ext16, uint64(l), 2)
	default:
		return e.writeN(ext32, uint64(l), 4)
	}
}

// EncodeExt encodes v, whose type was registered under id, through the
// pooled ext buffer.
func EncodeExt(w *bytes.Buffer, id int8, v interface{}, enc encoderFunc) error {
	e := &Encoder{w: w}
	return makeExtEncoder(id, enc)(e, reflect.ValueOf(v))
}
