// Package fixed is the fix of danielgtaylor/huma#542
// (https://github.com/danielgtaylor/huma/pull/542), first commit of the PR:
// the buffer is reset and put back by deferred calls, after the handler that
// may read RawBody has returned.
package fixed

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"sync"
)

const maxPooledBody = 1 << 20

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type Operation struct {
	HasBody bool
}

func Register[I, O any](op Operation, rawBodyIndex int, handler func(context.Context, *I) (*O, error), write func(*O, error)) func(context.Context, io.Reader) {
	return func(ctx context.Context, r io.Reader) {
		var input I
		v := reflect.ValueOf(&input).Elem()

		buf := bufPool.Get().(*bytes.Buffer)
		defer func() {
			buf.Reset()
			if buf.Cap() <= maxPooledBody {
				bufPool.Put(buf)
			}
		}()
		if _, err := io.Copy(buf, r); err != nil {
			write(nil, err)
			return
		}
		body := buf.Bytes()

		if rawBodyIndex != -1 {
			f := v.Field(rawBodyIndex)
			f.SetBytes(body)
		}

		if op.HasBody && len(body) > 0 {
			if err := json.Unmarshal(body, &input); err != nil {
				write(nil, err)
				return
			}
		}

		output, err := handler(ctx, &input)
		write(output, err)
	}
}
