// Source: https://github.com/bytedance/sonic/pull/369
// (commit 3696f9175bdeee1220bd770d26242ef885ec32a9, "fix: free the large
// buffer from pool", encoder/encoder.go).
//
// Fixed twin: EncodeInto no longer frees the caller's buffer. The encoding
// is done by encodeInto and the escaping/correction by encodeFinish, which
// only allocate; Encode frees its own pooled buffer when encodeFinish
// returned a new slice, and otherwise copies the result out and frees it.
package fixed

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

type Options uint64

const (
	EscapeHTML Options = 1 << iota
	ValidateString
)

const (
	_MaxStack  = 4096
	_MaxBuffer = 1024
)

type _State struct {
	x int
	f uint64
	p uintptr
}

type _Stack struct {
	sp uint64
	sb [_MaxStack]_State
}

// GoSlice mirrors sonic's internal/rt.GoSlice.
type GoSlice struct {
	Ptr unsafe.Pointer
	Len int
	Cap int
}

var (
	bytesPool = sync.Pool{}
	stackPool = sync.Pool{}
)

func newBytes() []byte {
	if ret := bytesPool.Get(); ret != nil {
		return ret.([]byte)
	} else {
		return make([]byte, 0, _MaxBuffer)
	}
}

func newStack() *_Stack {
	if ret := stackPool.Get(); ret == nil {
		return new(_Stack)
	} else {
		return ret.(*_Stack)
	}
}

func resetStack(p *_Stack) {
	p.sp = 0
	p.sb = [_MaxStack]_State{}
}

func freeBytes(p []byte) {
	p = p[:0]
	bytesPool.Put(p)
}

func freeStack(p *_Stack) {
	p.sp = 0
	stackPool.Put(p)
}

// encodeTypedPointer stands in for the JIT-compiled encoder: it appends the
// JSON of v to *buf.
func encodeTypedPointer(buf *[]byte, v interface{}, sb *_Stack, fv uint64) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	*buf = append(*buf, b...)
	return nil
}

// Encode returns the JSON encoding of val, encoded with opts.
func Encode(val interface{}, opts Options) ([]byte, error) {
	var ret []byte

	buf := newBytes()
	err := encodeInto(&buf, val, opts)

	/* check for errors */
	if err != nil {
		freeBytes(buf)
		return nil, err
	}

	/* htmlescape or correct UTF-8 if opts enable */
	old := buf
	buf = encodeFinish(old, opts)
	pbuf := ((*GoSlice)(unsafe.Pointer(&buf))).Ptr
	pold := ((*GoSlice)(unsafe.Pointer(&old))).Ptr

	/* return when allocated a new buffer */
	if pbuf != pold {
		freeBytes(old)
		return buf, nil
	}

	/* make a copy of the result */
	ret = make([]byte, len(buf))
	copy(ret, buf)

	freeBytes(buf)
	/* return the buffer into pool */
	return ret, nil
}

// EncodeInto is like Encode but uses a user-supplied buffer instead of allocating
// a new one.
func EncodeInto(buf *[]byte, val interface{}, opts Options) error {
	err := encodeInto(buf, val, opts)
	if err != nil {
		return err
	}
	*buf = encodeFinish(*buf, opts)
	return err
}

func encodeInto(buf *[]byte, val interface{}, opts Options) error {
	stk := newStack()
	err := encodeTypedPointer(buf, val, stk, uint64(opts))

	/* return the stack into pool */
	if err != nil {
		resetStack(stk)
	}
	freeStack(stk)

	/* avoid GC ahead */
	runtime.KeepAlive(buf)
	return err
}

func encodeFinish(buf []byte, opts Options) []byte {
	if opts&EscapeHTML != 0 {
		buf = HTMLEscape(nil, buf)
	}
	if opts&ValidateString != 0 && !utf8.Valid(buf) {
		buf = correctWith(nil, buf, `\ufffd`)
	}
	return buf
}

// HTMLEscape appends to dst the JSON-encoded src with <, >, &, U+2028 and U+2029
// characters inside string literals changed to \u003c, \u003e, \u0026, \u2028, \u2029.
func HTMLEscape(dst []byte, src []byte) []byte {
	var out bytes.Buffer
	out.Write(dst)
	json.HTMLEscape(&out, src)
	return out.Bytes()
}

func correctWith(dst []byte, src []byte, repl string) []byte {
	return append(dst, strings.ToValidUTF8(string(src), repl)...)
}
