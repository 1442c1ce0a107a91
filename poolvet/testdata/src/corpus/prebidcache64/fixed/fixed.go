// Package fixed is the fix of prebid/prebid-cache#64
// (https://github.com/prebid/prebid-cache/pull/64): the slice is emptied
// before decoding into the pooled request.
package fixed

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
	defer putRequestPool.Put(put)
	put.Puts = put.Puts[:0]
	if err := json.Unmarshal(body, put); err != nil {
		return 0, err
	}
	return len(put.Puts), nil
}
