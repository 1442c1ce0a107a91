// Source: https://github.com/thushan/olla/pull/128
// (commit https://github.com/thushan/olla/commit/33307eb8d03e6bd47b5cc960f49cf4a88cc1e5de,
// "fix(inspector): copy buffer bytes before pool return to avoid aliasing")
//
// Bug: BodyInspector.Inspect read the JSON request body into a
// *bytes.Buffer taken from its lite pool (deferred Reset + Put), and then
// restored r.Body for downstream handlers with
// bytes.NewReader(buffer.Bytes()). buffer.Bytes() aliases the pooled
// buffer's array; once the deferred Reset()/Put() ran, another request
// could take the buffer and overwrite it while the proxy was still
// reading r.Body, so upstreams received corrupted or foreign bodies.
//
// Fix: copy the bytes (append([]byte(nil), buffer.Bytes()...)) before
// restoring r.Body.
//
// Check: useafterput (r.Body keeps buffer.Bytes() alive past the deferred
// bi.bufferPool.Put(buffer))
package fixed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

const (
	BodyInspectorName = "body"
	MaxBodySize       = 1024 * 1024 // 1MB max body size for inspection
	ContentTypeJSON   = "application/json"
)

type RequestProfile struct {
	ModelName string
}

type modelRequest struct {
	Model string `json:"model"`
}

// BodyInspector extracts model names from request bodies
type BodyInspector struct {
	bufferPool  *Pool[*bytes.Buffer]
	maxBodySize int64
}

func NewBodyInspector() (*BodyInspector, error) {
	bufPool, err := NewLitePool(func() *bytes.Buffer {
		return new(bytes.Buffer)
	})
	if err != nil {
		return nil, fmt.Errorf("failed to create buffer pool: %w", err)
	}

	return &BodyInspector{
		maxBodySize: MaxBodySize,
		bufferPool:  bufPool,
	}, nil
}

func (bi *BodyInspector) Name() string {
	return BodyInspectorName
}

func (bi *BodyInspector) Inspect(ctx context.Context, r *http.Request, profile *RequestProfile) error {
	if r.Body == nil || r.ContentLength == 0 {
		return nil
	}

	contentType := r.Header.Get("Content-Type")
	if !strings.Contains(strings.ToLower(contentType), ContentTypeJSON) {
		return nil
	}

	if r.ContentLength > bi.maxBodySize {
		return nil
	}

	buffer := bi.bufferPool.Get()
	defer func() {
		buffer.Reset()
		bi.bufferPool.Put(buffer)
	}()

	limitedReader := io.LimitReader(r.Body, bi.maxBodySize)

	if _, err := io.Copy(buffer, limitedReader); err != nil {
		return nil
	}

	// Copy the buffer bytes before the deferred Reset()/Put() invalidates the slice.
	// buffer.Bytes() aliases the pool buffer's internal array; once Reset() runs the
	// underlying array can be reused for another request, corrupting r.Body reads.
	restored := append([]byte(nil), buffer.Bytes()...)

	// Restore the body for downstream handlers by creating a new reader that combines
	// what we've already read with any remaining unread content
	r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(restored), r.Body))

	modelName := bi.extractModelName(buffer.Bytes())
	if modelName != "" {
		profile.ModelName = modelName
	}

	return nil
}

func (bi *BodyInspector) extractModelName(body []byte) string {
	if len(body) == 0 {
		return ""
	}

	var req modelRequest
	if err := json.Unmarshal(body, &req); err == nil && req.Model != "" {
		return bi.normalizeModelName(req.Model)
	}

	var data map[string]interface{}
	if err := json.Unmarshal(body, &data); err != nil {
		return ""
	}

	for key, value := range data {
		if strings.EqualFold(key, "model") {
			if modelStr, ok := value.(string); ok && modelStr != "" {
				return bi.normalizeModelName(modelStr)
			}
		}
	}
	return ""
}

func (bi *BodyInspector) normalizeModelName(model string) string {
	model = strings.TrimSpace(model)
	model = strings.ToLower(model)
	return model
}
