// Package fixed is the fix of prebid/prebid-cache#64
// (https://github.com/prebid/prebid-cache/pull/64): the slice is emptied
// (made anew, as the fix does) before decoding into the pooled request:
// json reuses the memory of old elements within the capacity without
// zeroing them, so truncating with [:0] would not be enough.
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
	put.Puts = make([]PutObject, 0)
	if err := json.Unmarshal(body, put); err != nil {
		return 0, err
	}
	return len(put.Puts), nil
}
