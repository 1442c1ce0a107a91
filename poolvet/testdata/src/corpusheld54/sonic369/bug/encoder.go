// Source: https://github.com/bytedance/sonic/pull/369
// (commit 3696f9175bdeee1220bd770d26242ef885ec32a9, "fix: free the large
// buffer from pool", encoder/encoder.go).
//
// Bug: EncodeInto is the public entry point that encodes into a
// caller-supplied buffer. When EscapeHTML (or ValidateString with invalid
// UTF-8) was set, it allocated a new destination and then called
// freeBytes(*buf) on the "origin used buffer", i.e. it put the caller's own
// slice (of any size, still referenced by the caller) into the encoder's
// bytesPool. The next Encode/newBytes could hand that memory out again and
// overwrite it while the caller still uses it. Encode relied on this because
// it calls EncodeInto with a pooled buffer.
//
// Fix: the work was split into encodeInto (no pool traffic) and
// encodeFinish (allocates the escaped/corrected copy but never frees). Only
// Encode, which owns the pooled buffer, returns it to the pool, after
// comparing the data pointers of the old and new slices.
//
// Check: useafterput (at the freeBytes(*buf) calls in EncodeInto: memory
// owned by the caller of EncodeInto, who keeps referencing it, is put into
// the pool)
package bug

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
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
	buf := newBytes()
	err := EncodeInto(&buf, val, opts)

	/* check for errors */
	if err != nil {
		freeBytes(buf)
		return nil, err
	}

	if opts&EscapeHTML != 0 || opts&ValidateString != 0 {
		return buf, nil
	}

	/* make a copy of the result */
	ret := make([]byte, len(buf))
	copy(ret, buf)

	freeBytes(buf)
	/* return the buffer into pool */
	return ret, nil
}

// EncodeInto is like Encode but uses a user-supplied buffer instead of allocating
// a new one.
func EncodeInto(buf *[]byte, val interface{}, opts Options) error {
	stk := newStack()
	err := encodeTypedPointer(buf, val, stk, uint64(opts))

	/* return the stack into pool */
	if err != nil {
		resetStack(stk)
	}
	freeStack(stk)

	/* EscapeHTML needs to allocate a new buffer*/
	if opts&EscapeHTML != 0 {
		dest := HTMLEscape(nil, *buf)
		freeBytes(*buf) // want `useafterput`
		*buf = dest
	}

	if opts&ValidateString != 0 && !utf8.Valid(*buf) {
		dest := correctWith(nil, *buf, `\ufffd`)
		freeBytes(*buf) // want `useafterput`
		*buf = dest
	}

	/* avoid GC ahead */
	runtime.KeepAlive(buf)
	return err
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
