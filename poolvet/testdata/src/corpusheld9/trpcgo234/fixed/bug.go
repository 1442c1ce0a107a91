// Package fixed is trpc-group/trpc-go#234 after the fix: request body
// buffers that grew past 1 MiB are dropped instead of going back to the pool.
package fixed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"
)

const (
	defaultBodyBufferSize   = 4096
	maxPooledBodyBufferSize = 1 << 20
)

var bodyBufferPool = sync.Pool{
	New: func() any {
		return bytes.NewBuffer(make([]byte, defaultBodyBufferSize))
	},
}

// putBodyBuffer returns b to the pool unless it is nil or oversized.
func putBodyBuffer(b *bytes.Buffer) {
	if b == nil || b.Cap() > maxPooledBodyBufferSize {
		return
	}
	bodyBufferPool.Put(b)
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
	defer putBodyBuffer(buffer)
	if _, err := io.Copy(buffer, body); err != nil {
		return fmt.Errorf("failed to read request body: %w", err)
	}
	if err := json.Unmarshal(buffer.Bytes(), req); err != nil {
		return fmt.Errorf("failed to unmarshal req body: %w", err)
	}
	return nil
}
