// Package bug reproduces the shape of aws/aws-lambda-go#639
// (https://github.com/aws/aws-lambda-go/pull/639): the reflective handler
// encodes its response into a pooled *jsonOutBuffer, and
// handlerFunc.Invoke returns response.Bytes() after registering a deferred
// Close that resets the buffer and puts it back into the pool. The caller
// holds a slice of pooled storage that the next invoke overwrites: after a
// second call returns "BBBB", the first result reads "BBBB" too.
//
// Check: useafterput (alias returned past a deferred Close that puts the
// buffer; the report belongs at that return).
package bug

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

const maxPooledBuffer = 64 << 10

type jsonOutBuffer struct {
	*bytes.Buffer
}

var bufferPool = sync.Pool{New: func() any { return &jsonOutBuffer{new(bytes.Buffer)} }}

// Close recycles the buffer.
func (j *jsonOutBuffer) Close() error {
	j.Reset()
	if j.Cap() <= maxPooledBuffer {
		bufferPool.Put(j)
	}
	return nil
}

type handlerFunc func(ctx context.Context, payload []byte) (io.Reader, error)

// reflectHandler wraps a typed handler: it decodes the payload and encodes
// the result into a pooled buffer.
func reflectHandler(f func(context.Context, string) (string, error)) handlerFunc {
	return func(ctx context.Context, payload []byte) (io.Reader, error) {
		var in string
		if err := json.Unmarshal(payload, &in); err != nil {
			return nil, err
		}
		out, err := f(ctx, in)
		if err != nil {
			return nil, err
		}
		buf := bufferPool.Get().(*jsonOutBuffer)
		if err := json.NewEncoder(buf).Encode(out); err != nil {
			_ = buf.Close()
			return nil, err
		}
		return buf, nil
	}
}

func (h handlerFunc) Invoke(ctx context.Context, payload []byte) ([]byte, error) {
	response, err := h(ctx, payload)
	if err != nil {
		return nil, err
	}
	// close the response before the next invoke to avoid leaking it
	if closer, ok := response.(io.Closer); ok {
		defer closer.Close()
	}
	// avoid a copy when the response already is a buffer
	switch response := response.(type) {
	case *jsonOutBuffer:
		return response.Bytes(), nil // want `useafterput`
	case *bytes.Buffer:
		return response.Bytes(), nil
	}
	return io.ReadAll(response)
}
