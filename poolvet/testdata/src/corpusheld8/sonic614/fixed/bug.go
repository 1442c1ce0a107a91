// Package fixed is the fixed twin of corpusheld8/sonic614: like sonic#664
// (a size check before reuse, modelled on fmt's 64 KiB rule), buffers that
// grew past a limit are dropped instead of pooled.
package fixed

import (
	"bytes"
	"encoding/json"
	"sync"
)

const (
	defaultEncoderBufferSize = 4 * 1024
	maxReuseBufferSize       = 64 * 1024
)

var bufferPool = sync.Pool{}

func newBuffer() *bytes.Buffer {
	if ret := bufferPool.Get(); ret != nil {
		return ret.(*bytes.Buffer)
	}
	return bytes.NewBuffer(make([]byte, 0, defaultEncoderBufferSize))
}

func freeBuffer(p *bytes.Buffer) {
	if p.Cap() > maxReuseBufferSize {
		return
	}
	p.Reset()
	bufferPool.Put(p)
}

func encodeInto(buf *bytes.Buffer, val interface{}) error {
	out, err := json.Marshal(val)
	if err != nil {
		return err
	}
	buf.Write(out)
	return nil
}

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
