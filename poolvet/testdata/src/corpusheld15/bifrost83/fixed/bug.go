// Package fixed is the fix suggested on maximhq/bifrost#83
// (https://github.com/maximhq/bifrost/pull/83): the result the caller owns
// is allocated, not pooled; only the scratch decode struct, whose fields
// are copied out as strings, goes back to the pool.
package fixed

import (
	"encoding/json"
	"sync"
)

type mistralResponse struct {
	ID    string `json:"id"`
	Model string `json:"model"`
	Text  string `json:"text"`
}

type BifrostResponse struct {
	ID       string
	Model    string
	Content  string
	Provider string
}

var mistralResponsePool = sync.Pool{New: func() any { return new(mistralResponse) }}

func acquireMistralResponse() *mistralResponse {
	r := mistralResponsePool.Get().(*mistralResponse)
	*r = mistralResponse{}
	return r
}

func releaseMistralResponse(r *mistralResponse) {
	if r != nil {
		*r = mistralResponse{}
		mistralResponsePool.Put(r)
	}
}

func ChatCompletion(body []byte) (*BifrostResponse, error) {
	response := acquireMistralResponse()
	defer releaseMistralResponse(response)

	result := &BifrostResponse{}

	if err := json.Unmarshal(body, response); err != nil {
		return nil, err
	}
	result.ID = response.ID
	result.Model = response.Model
	result.Content = response.Text
	result.Provider = "mistral"
	return result, nil
}
