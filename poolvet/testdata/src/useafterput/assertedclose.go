package useafterput

import (
	"bytes"
	"io"
	"sync"
)

// A deferred Close through an interface whose dynamic value the function
// also asserts to a pooled type of the package: that type's Close puts it,
// so returning its bytes from the type switch returns pooled memory
// (aws/aws-lambda-go#639).
type pooledOut struct {
	*bytes.Buffer
}

var pooledOutPool = sync.Pool{New: func() any { return &pooledOut{new(bytes.Buffer)} }}

func (o *pooledOut) Close() error { // want Close:`pool:put\(0\)\+reset`
	o.Reset()
	if o.Cap() <= 1<<20 {
		pooledOutPool.Put(o)
	}
	return nil
}

func drainResponse(r io.Reader) ([]byte, error) {
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	switch r := r.(type) {
	case *pooledOut:
		return r.Bytes(), nil // want `returned value shares memory with c`
	case *bytes.Buffer:
		return r.Bytes(), nil // another dynamic type: not reported
	}
	return io.ReadAll(r)
}

// A copy: not reported.
func drainResponseCopy(r io.Reader) ([]byte, error) {
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	if o, ok := r.(*pooledOut); ok {
		return bytes.Clone(o.Bytes()), nil
	}
	return io.ReadAll(r)
}
