// Package bug reproduces the shape of vmihailenco/msgpack#330
// (https://github.com/vmihailenco/msgpack/pull/330, commit 4888388 "make Reset* also
// reset dict, otherwise weird thing happen"): encoders are recycled through a
// sync.Pool (GetEncoder/PutEncoder). PutEncoder only drops the writer, and the
// ResetWriter method that callers use to point a pooled encoder at a new stream
// forgot the interning dictionary. A stream that had interned strings left its
// dictionary behind, so the next stream written by the same pooled encoder emitted
// back-references to strings its reader had never seen.
//
// Check: noreset. Fixed twin: ResetWriter also clears the dict, as the project's fix did.
package bug

import (
	"bytes"
	"io"
	"sync"
)

const minInternedLen = 3

type byteWriter struct {
	io.Writer
}

func (w byteWriter) WriteByte(c byte) error {
	_, err := w.Write([]byte{c})
	return err
}

type writer interface {
	io.Writer
	WriteByte(byte) error
}

type Encoder struct {
	w writer

	buf []byte

	dict map[string]int

	flags     uint32
	structTag string
}

const useInternedStringsFlag = 1 << 0

var encPool = sync.Pool{
	New: func() interface{} {
		return NewEncoder(nil)
	},
}

func NewEncoder(w io.Writer) *Encoder {
	e := &Encoder{buf: make([]byte, 9)}
	e.Reset(w)
	return e
}

func GetEncoder() *Encoder {
	return encPool.Get().(*Encoder)
}

func PutEncoder(enc *Encoder) {
	enc.w = nil
	encPool.Put(enc)
}

// Reset discards any buffered data, resets all state, and switches the writer.
func (e *Encoder) Reset(w io.Writer) {
	e.ResetDict(w, nil)
}

// ResetDict is like Reset, but also resets the dict.
func (e *Encoder) ResetDict(w io.Writer, dict map[string]int) {
	e.ResetWriter(w)
	e.flags = 0
	e.structTag = ""
	e.dict = dict
}

// ResetWriter switches the writer and drops the dict; callers use it to re-arm a pooled encoder.
func (e *Encoder) ResetWriter(w io.Writer) {
	e.dict = nil
	if bw, ok := w.(writer); ok {
		e.w = bw
	} else if w == nil {
		e.w = nil
	} else {
		e.w = byteWriter{Writer: w}
	}
}

func (e *Encoder) UseInternedStrings(on bool) *Encoder {
	if on {
		e.flags |= useInternedStringsFlag
	} else {
		e.flags &^= useInternedStringsFlag
	}
	return e
}

func (e *Encoder) EncodeString(s string) error {
	intern := e.flags&useInternedStringsFlag != 0
	if len(s) >= minInternedLen {
		if idx, ok := e.dict[s]; ok {
			return e.encodeIndex(idx)
		}
		if intern {
			if e.dict == nil {
				e.dict = make(map[string]int)
			}
			e.dict[s] = len(e.dict)
		}
	}
	if err := e.w.WriteByte(0xa0 | byte(len(s)&0x1f)); err != nil {
		return err
	}
	_, err := io.WriteString(e.w, s)
	return err
}

func (e *Encoder) encodeIndex(idx int) error {
	e.buf = e.buf[:0]
	e.buf = append(e.buf, 0xd4, 0, byte(idx))
	_, err := e.w.Write(e.buf)
	return err
}

// WriteStream encodes names on w with a pooled encoder, the way applications use
// the pool with their own writer.
func WriteStream(w io.Writer, names []string, intern bool) error {
	enc := GetEncoder()
	defer PutEncoder(enc)

	enc.ResetWriter(w)
	enc.UseInternedStrings(intern)
	for _, n := range names {
		if err := enc.EncodeString(n); err != nil {
			return err
		}
	}
	return nil
}

// Marshal uses the pooled encoder through the full Reset.
func Marshal(names []string) ([]byte, error) {
	enc := GetEncoder()

	var buf bytes.Buffer
	enc.Reset(&buf)

	var err error
	for _, n := range names {
		if err = enc.EncodeString(n); err != nil {
			break
		}
	}
	b := buf.Bytes()

	PutEncoder(enc)

	if err != nil {
		return nil, err
	}
	return b, nil
}
