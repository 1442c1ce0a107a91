// Package bug reproduces the shape of bytedance/sonic#614
// (https://github.com/bytedance/sonic/issues/614, fixed by
// https://github.com/bytedance/sonic/pull/664): the encoder's free helpers
// only reset the write cursor of a pooled buffer before putting it back.
// Under high QPS with a few very large JSON documents, every buffer that once
// encoded a big document goes back to the pool at its grown size, so over
// time most pooled buffers become huge and memory looks leaked.
//
// Check: unbounded (a *bytes.Buffer that the encoder grows by a
// document-sized amount is Reset and put back with no capacity limit).
package bug

import (
	"bytes"
	"encoding/json"
	"sync"
)

const defaultEncoderBufferSize = 4 * 1024

var bufferPool = sync.Pool{}

func newBuffer() *bytes.Buffer {
	if ret := bufferPool.Get(); ret != nil {
		return ret.(*bytes.Buffer)
	}
	return bytes.NewBuffer(make([]byte, 0, defaultEncoderBufferSize))
}

func freeBuffer(p *bytes.Buffer) {
	p.Reset()
	bufferPool.Put(p) // want `unbounded`
}

// encodeInto writes the JSON form of val, which may be arbitrarily large.
func encodeInto(buf *bytes.Buffer, val interface{}) error {
	out, err := json.Marshal(val)
	if err != nil {
		return err
	}
	buf.Write(out)
	return nil
}

// Encode renders val and returns a private copy of the bytes.
func Encode(val interface{}) ([]byte, error) {
	buf := newBuffer()
	if err := encodeInto(buf, val); err != nil {
		freeBuffer(buf)
		return nil, err
	}
	ret := make([]byte, buf.Len())
	copy(ret, buf.Bytes())
	freeBuffer(buf)
	return ret, nil
}
