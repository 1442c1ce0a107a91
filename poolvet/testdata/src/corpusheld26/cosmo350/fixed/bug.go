// Package bug reproduces the shape of wundergraph/cosmo#350 (https://github.com/wundergraph/cosmo/pull/350,
// "fix: race condition due to premature buffer reuse"): OperationParser.ReadBody copied the request
// body into a bytes.Buffer from the router's buffer pool, deferred returning it to the pool, and
// returned buf.Bytes(). The caller (the pre-handler, or ParseReader) then parsed that slice after the
// buffer was already back in the pool, so concurrent requests overwrote operations being parsed. The
// fix lets the caller own the buffer and put it back only after it is done with the body.
// Check: useafterput (returning a view of the pooled buffer past its deferred Put; report at the
// return).
package bug

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// ---- router/internal/pool ----

const maxPooledBuffer = 1 << 20

var bytesBufferPool = sync.Pool{New: func() interface{} { return new(bytes.Buffer) }}

func GetBytesBuffer() *bytes.Buffer {
	buf := bytesBufferPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

func PutBytesBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBuffer {
		return
	}
	buf.Reset()
	bytesBufferPool.Put(buf)
}

// ---- router/core ----

type inputError struct {
	message    string
	statusCode int
}

func (e *inputError) Error() string { return e.message }

type ParsedOperation struct {
	Name      string
	Query     string
	Variables json.RawMessage
}

type OperationParser struct {
	maxOperationSizeInBytes int64
}

func (p *OperationParser) entityTooLarge() error {
	return &inputError{message: "request body too large", statusCode: http.StatusRequestEntityTooLarge}
}

func (p *OperationParser) ReadBody(ctx context.Context, buf *bytes.Buffer, r io.Reader) ([]byte, error) {
	// Use an extra byte for the max size. This way we can check if N became
	// zero to detect if the request body was too large.
	limitedReader := &io.LimitedReader{R: r, N: p.maxOperationSizeInBytes + 1}

	if _, err := io.Copy(buf, limitedReader); err != nil {
		return nil, fmt.Errorf("failed to read request body: %w", err)
	}

	if limitedReader.N == 0 {
		return nil, p.entityTooLarge()
	}

	return buf.Bytes(), nil
}

func (p *OperationParser) parse(_ context.Context, data []byte) (*ParsedOperation, error) {
	var op struct {
		OperationName string          `json:"operationName"`
		Query         string          `json:"query"`
		Variables     json.RawMessage `json:"variables"`
	}
	if err := json.Unmarshal(data, &op); err != nil {
		return nil, &inputError{message: err.Error(), statusCode: http.StatusBadRequest}
	}
	return &ParsedOperation{Name: op.OperationName, Query: op.Query, Variables: op.Variables}, nil
}

func (p *OperationParser) ParseReader(ctx context.Context, r io.Reader) (*ParsedOperation, error) {
	buf := GetBytesBuffer()
	defer PutBytesBuffer(buf)
	data, err := p.ReadBody(ctx, buf, r)
	if err != nil {
		return nil, err
	}
	return p.parse(ctx, data)
}

type PreHandler struct {
	parser *OperationParser
}

func (h *PreHandler) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// This buffer needs to be returned to the pool only
		// AFTER we're done with body (retrieved from parser.ReadBody())
		buf := GetBytesBuffer()
		defer PutBytesBuffer(buf)

		body, err := h.parser.ReadBody(r.Context(), buf, r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		op, err := h.parser.parse(r.Context(), body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		_ = op
		next.ServeHTTP(w, r)
	})
}
