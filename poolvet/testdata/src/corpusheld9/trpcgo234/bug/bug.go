// Package bug reproduces the shape of trpc-group/trpc-go#234
// (https://github.com/trpc-group/trpc-go/pull/234): the restful transcoder
// read every HTTP request body into a *bytes.Buffer taken from a package-level
// sync.Pool and put it back, whatever its size, with a deferred Put. One huge
// request body grew a buffer that the pool then kept for later requests. The
// PR drops buffers above 1 MiB instead of returning them.
//
// Check: unbounded (a *bytes.Buffer filled by io.Copy from the request body
// is put back by a deferred Put with no size check).
package bug

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

const defaultBodyBufferSize = 4096

var bodyBufferPool = sync.Pool{
	New: func() any {
		return bytes.NewBuffer(make([]byte, defaultBodyBufferSize))
	},
}

type transcoder struct {
	hasBody bool
}

// transcodeBody reads body and decodes it into req.
func (tr *transcoder) transcodeBody(req any, body io.Reader) error {
	if !tr.hasBody {
		return nil
	}
	buffer := bodyBufferPool.Get().(*bytes.Buffer)
	buffer.Reset()
	defer bodyBufferPool.Put(buffer) // want `unbounded`
	if _, err := io.Copy(buffer, body); err != nil {
		return fmt.Errorf("failed to read request body: %w", err)
	}
	if err := json.Unmarshal(buffer.Bytes(), req); err != nil {
		return fmt.Errorf("failed to unmarshal req body: %w", err)
	}
	return nil
}
