// Package bug reproduces the shape of hashicorp/aws-sdk-go-base#1502
// (https://github.com/hashicorp/aws-sdk-go-base/pull/1502): the request body
// logger read the start of the body into a bytes.Buffer from a shared pool,
// deferred putting it back, and restored req.Body as a MultiReader over
// bytes.NewReader(buf.Bytes()) and the rest of the body. The request is sent
// only after Log returns, so a later Log could take the same buffer and
// splice another request's body into this one.
//
// Check: useafterput (an alias of the pooled buffer, wrapped in readers, is
// stored into a field of the caller's request while the Put is deferred;
// the report is placed at that store, the hand-off the docs describe for a
// deferred Put; the request is not returned, so no return line carries it).
package bug

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

	req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(original.Bytes()), req.Body)) // want `useafterput`
	return nil
}
