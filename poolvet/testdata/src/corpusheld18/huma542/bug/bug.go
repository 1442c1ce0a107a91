// Package bug reproduces the shape of danielgtaylor/huma#542
// (https://github.com/danielgtaylor/huma/pull/542): Register read the request
// body into a pooled bytes.Buffer and, when the input struct has a RawBody
// field, stored buf.Bytes() into it through reflect (SetBytes). The buffer
// was reset and put back before the user's handler ran, so the handler read
// RawBody bytes that another request could already be overwriting.
//
// Check: useafterput (retention: a view of the buffer stored through
// reflect into a field of the local input struct, handler called with the
// struct after the Put). The report belongs at the handler call, the first
// use of the struct holding the alias after the Put.
package bug

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
		if _, err := io.Copy(buf, r); err != nil {
			buf.Reset()
			if buf.Cap() <= maxPooledBody {
				bufPool.Put(buf)
			}
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
				buf.Reset()
				if buf.Cap() <= maxPooledBody {
					bufPool.Put(buf)
				}
				write(nil, err)
				return
			}
		}

		buf.Reset()
		if buf.Cap() <= maxPooledBody {
			bufPool.Put(buf)
		}

		output, err := handler(ctx, &input) // want `useafterput`
		write(output, err)
	}
}
