// Package fixed is the fixed twin of hashicorp/aws-sdk-go-base#1502
// (https://github.com/hashicorp/aws-sdk-go-base/pull/1502): the restored
// body reads a clone of the logged bytes, not the pooled buffer.
package fixed

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

const maxPooled = 64 << 10

var BufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type defaultRequestBodyLogger struct {
	maxBodyLen int64
	logf       func(ctx context.Context, format string, args ...any)
}

func (l *defaultRequestBodyLogger) Log(ctx context.Context, req *http.Request) error {
	if req.Body == nil {
		return nil
	}
	original := BufferPool.Get().(*bytes.Buffer)
	original.Reset()
	defer func() {
		if original.Cap() <= maxPooled {
			BufferPool.Put(original)
		}
	}()

	if _, err := io.CopyN(original, req.Body, l.maxBodyLen); err != nil && err != io.EOF {
		return err
	}
	l.logf(ctx, "HTTP request body: %s", original.String())

	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(bytes.Clone(original.Bytes())), req.Body))
	return nil
}
