// Package bug reproduces the shape of maximhq/bifrost#88
// (https://github.com/maximhq/bifrost/pull/88): a provider decoded the
// upstream reply into a pooled OllamaResponse and built its result with
// Choices: response.Choices, sharing the pooled struct's backing array; the
// pooled struct was released, and the next request decoding into it
// overwrote the choices already handed to the caller. The PR removed the
// pool; the review asked for a copy of the slice.
//
// Check: useafterput (retention: the returned struct holds a slice of the
// pooled object, which a deferred release gives back).
package bug

import (
	"encoding/json"
	"sync"
)

type Choice struct {
	Index   int    `json:"index"`
	Message string `json:"message"`
}

type OllamaResponse struct {
	ID      string   `json:"id"`
	Choices []Choice `json:"choices"`
}

type BifrostResponse struct {
	ID      string
	Choices []Choice
}

var ollamaResponsePool = sync.Pool{New: func() any { return new(OllamaResponse) }}

func acquireOllamaResponse() *OllamaResponse {
	return ollamaResponsePool.Get().(*OllamaResponse)
}

func releaseOllamaResponse(r *OllamaResponse) {
	r.ID = ""
	clear(r.Choices)
	r.Choices = r.Choices[:0]
	ollamaResponsePool.Put(r)
}

func ChatCompletion(body []byte) (*BifrostResponse, error) {
	response := acquireOllamaResponse()
	defer releaseOllamaResponse(response)
	if err := json.Unmarshal(body, response); err != nil {
		return nil, err
	}
	return &BifrostResponse{ID: response.ID, Choices: response.Choices}, nil // want `shares memory|used after|useafterput`
}
