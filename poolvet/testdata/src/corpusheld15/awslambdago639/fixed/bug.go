// Package fixed is the fix of aws/aws-lambda-go#639
// (https://github.com/aws/aws-lambda-go/pull/639): Invoke returns a copy of
// the pooled buffer's bytes, so the deferred Close can recycle the buffer.
package fixed

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

func (j *jsonOutBuffer) Close() error {
	j.Reset()
	if j.Cap() <= maxPooledBuffer {
		bufferPool.Put(j)
	}
	return nil
}

type handlerFunc func(ctx context.Context, payload []byte) (io.Reader, error)

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
	if closer, ok := response.(io.Closer); ok {
		defer closer.Close()
	}
	switch response := response.(type) {
	case *jsonOutBuffer:
		return bytes.Clone(response.Bytes()), nil
	case *bytes.Buffer:
		return response.Bytes(), nil
	}
	return io.ReadAll(response)
}
