// Package fixed is the repaired twin of go-resty/resty#421 (https://github.com/go-resty/resty/pull/421): the fix stopped pooling the encoder's target buffer, so the returned bytes are owned by the caller alone.
package fixed

import (
	"bytes"
	"encoding/json"
)

// MarshalNoEscape encodes v as JSON without escaping <, > and &.
func MarshalNoEscape(v any) ([]byte, error) {
	buf := new(bytes.Buffer)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
