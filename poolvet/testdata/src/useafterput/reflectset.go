package useafterput

import (
	"bytes"
	"io"
	"reflect"
	"sync"
)

var rawBodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type rawInput struct {
	Name    string
	RawBody []byte
}

// The body's bytes are stored through reflect into a field of the local
// input, the buffer goes back, then the handler reads the input
// (danielgtaylor/huma#542).
func serveRaw(r io.Reader, rawField int, handle func(*rawInput) error) error {
	var in rawInput
	v := reflect.ValueOf(&in).Elem()
	buf := rawBodyPool.Get().(*bytes.Buffer)
	if _, err := io.Copy(buf, r); err != nil {
		return err
	}
	v.Field(rawField).SetBytes(buf.Bytes())
	buf.Reset()
	rawBodyPool.Put(buf)
	return handle(&in) // want `buf is used after it was put back into the pool`
}

// Silent: the handler runs before the Put.
func serveRaw2(r io.Reader, rawField int, handle func(*rawInput) error) error {
	var in rawInput
	v := reflect.ValueOf(&in).Elem()
	buf := rawBodyPool.Get().(*bytes.Buffer)
	defer func() {
		buf.Reset()
		rawBodyPool.Put(buf)
	}()
	if _, err := io.Copy(buf, r); err != nil {
		return err
	}
	v.Field(rawField).SetBytes(buf.Bytes())
	return handle(&in)
}
