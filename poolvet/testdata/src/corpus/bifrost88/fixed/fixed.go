// Package fixed is a fixed twin of maximhq/bifrost#88
// (https://github.com/maximhq/bifrost/pull/88): the choices are copied out
// of the pooled struct before it is released.
package fixed

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
	choices := append([]Choice(nil), response.Choices...)
	return &BifrostResponse{ID: response.ID, Choices: choices}, nil
}
