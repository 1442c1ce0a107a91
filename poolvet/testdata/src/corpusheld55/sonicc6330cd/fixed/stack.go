// Source: https://github.com/bytedance/sonic/commit/cc6330cddfe63b7f2cd090259d7460104dc53a98
// ("fix: check `CanSizeReuse` in `FreeBytes`", internal/encoder/vars/stack.go).
//
// Bug: sonic's encoder keeps its output buffers in two sync.Pools
// (bytesPool of *[]byte and bufferPool of *bytes.Buffer). FreeBytes and
// FreeBuffer truncated the buffer and put it back whatever its capacity, so
// a buffer grown while encoding one huge value (or compacting one huge
// RawMessage) stayed in the pool and pinned that memory for every later
// caller (see option.LimitBufferSize, added for sonic issue #614).
// Encode's error path and alg.Compact return buffers through these helpers.
//
// Fix: both helpers only put the buffer back when
// rt.CanSizeResue(cap) reports it is within option.LimitBufferSize;
// larger buffers are dropped for the GC.
//
// Check: unbounded (at the two Puts in FreeBytes and FreeBuffer, which
// return a buffer of any capacity to the pool with no size limit)
package fixed

import (
	"bytes"
	"encoding/json"
	"sync"
)

// option package
var (
	// DefaultEncoderBufferSize is the initial buffer size of Encoder
	DefaultEncoderBufferSize uint = 4 * 1024

	// LimitBufferSize indicates the max pool buffer size, in case of OOM.
	LimitBufferSize uint = 1024 * 1024
)

// rt package
func CanSizeResue(cap int) bool {
	return cap <= int(LimitBufferSize)
}

// vars package
var (
	bytesPool  = sync.Pool{}
	bufferPool = sync.Pool{}
)

func NewBytes() *[]byte {
	if ret := bytesPool.Get(); ret != nil {
		return ret.(*[]byte)
	} else {
		ret := make([]byte, 0, DefaultEncoderBufferSize)
		return &ret
	}
}

func NewBuffer() *bytes.Buffer {
	if ret := bufferPool.Get(); ret != nil {
		return ret.(*bytes.Buffer)
	} else {
		return bytes.NewBuffer(make([]byte, 0, DefaultEncoderBufferSize))
	}
}

func FreeBytes(p *[]byte) {
	if CanSizeResue(cap(*p)) {
		(*p) = (*p)[:0]
		bytesPool.Put(p)
	}
}

func FreeBuffer(p *bytes.Buffer) {
	if CanSizeResue(cap(p.Bytes())) {
		p.Reset()
		bufferPool.Put(p)
	}
}

// alg package
func Compact(p *[]byte, v []byte) error {
	buf := NewBuffer()
	err := json.Compact(buf, v)

	/* check for errors */
	if err != nil {
		return err
	}

	/* add to result */
	v = buf.Bytes()
	*p = append(*p, v...)

	/* return the buffer into pool */
	FreeBuffer(buf)
	return nil
}

// encoder package
func encodeInto(buf *[]byte, val interface{}) error {
	raw, err := json.Marshal(val)
	if err != nil {
		return err
	}
	return Compact(buf, raw)
}

// Encode returns the JSON encoding of val.
func Encode(val interface{}) ([]byte, error) {
	var ret []byte

	buf := NewBytes()
	err := encodeInto(buf, val)

	/* check for errors */
	if err != nil {
		FreeBytes(buf)
		return nil, err
	}

	/* make a copy of the result */
	if CanSizeResue(cap(*buf)) {
		ret = make([]byte, len(*buf))
		copy(ret, *buf)
		FreeBytes(buf)
	} else {
		ret = *buf
	}
	return ret, nil
}
