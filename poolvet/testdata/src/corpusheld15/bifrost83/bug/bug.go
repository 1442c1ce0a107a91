// Package bug reproduces the shape of maximhq/bifrost#83
// (https://github.com/maximhq/bifrost/pull/83, review thread on
// core/providers/mistral.go): the Mistral provider took its result struct
// from a pool and deferred its release, then returned that same pointer.
// The deferred release runs before the caller sees the result, so the
// caller holds an object the next request may take from the pool and fill.
//
// Check: useafterput (a pooled pointer returned past its deferred release
// through a small release helper).
package bug

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

var bifrostResponsePool = sync.Pool{New: func() any { return new(BifrostResponse) }}

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

func acquireBifrostResponse() *BifrostResponse {
	r := bifrostResponsePool.Get().(*BifrostResponse)
	*r = BifrostResponse{}
	return r
}

func releaseBifrostResponse(r *BifrostResponse) {
	if r != nil {
		*r = BifrostResponse{}
		bifrostResponsePool.Put(r)
	}
}

// ChatCompletion decodes the provider's answer into a pooled scratch struct
// and converts it into the common response type.
func ChatCompletion(body []byte) (*BifrostResponse, error) {
	response := acquireMistralResponse()
	defer releaseMistralResponse(response)

	result := acquireBifrostResponse()
	defer releaseBifrostResponse(result)

	if err := json.Unmarshal(body, response); err != nil {
		return nil, err
	}
	result.ID = response.ID
	result.Model = response.Model
	result.Content = response.Text
	result.Provider = "mistral"
	return result, nil // want `useafterput`
}
