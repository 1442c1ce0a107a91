// Package bug reproduces the shape of prebid/prebid-cache#64
// (https://github.com/prebid/prebid-cache/pull/64): the handler took a
// PutRequest from a pool and json-decoded the body into it without clearing
// it; a body without "puts" kept the previous request's elements.
//
// Check: noreset (decoding into a pooled object without clearing it).
package bug

import (
	"encoding/json"
	"sync"
)

type PutObject struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

type PutRequest struct {
	Puts []PutObject `json:"puts"`
}

var putRequestPool = sync.Pool{New: func() any { return &PutRequest{} }}

func Handle(body []byte) (int, error) {
	put := putRequestPool.Get().(*PutRequest)
	defer putRequestPool.Put(put) // want `noreset|without Reset|not reset|clear|stale|decod`
	if err := json.Unmarshal(body, put); err != nil {
		return 0, err
	}
	return len(put.Puts), nil
}
