// Package bug reproduces the shape of maximhq/bifrost#3195
// (https://github.com/maximhq/bifrost/pull/3195, review thread on
// core/bifrost.go): BifrostRequest objects come from a sync.Pool and are
// cleared by resetBifrostRequest before Put, but the PR routed the
// cached-content operations through pooled requests while the reset
// function still did not clear the cached-content request pointers. A
// pooled request keeps the previous caller's cached-content request alive
// and visible to the next user.
//
// Check: noreset (a reset helper that forgets fields users store what
// they were passed into; reported at the Put after it).
package bug

import "sync"

type ChatRequest struct{ Model, Prompt string }
type TextCompletionRequest struct{ Model, Text string }
type CachedContentRequest struct {
	Model    string
	Contents []string
}

type BifrostRequest struct {
	RequestType                string
	ChatRequest                *ChatRequest
	TextCompletionRequest      *TextCompletionRequest
	CachedContentCreateRequest *CachedContentRequest
	CachedContentGetRequest    *CachedContentRequest
}

var bifrostRequestPool = sync.Pool{New: func() any { return &BifrostRequest{} }}

func getBifrostRequest() *BifrostRequest {
	return bifrostRequestPool.Get().(*BifrostRequest)
}

// resetBifrostRequest clears the request before it goes back to the pool;
// the cached-content fields are missing.
func resetBifrostRequest(req *BifrostRequest) {
	req.RequestType = ""
	req.ChatRequest = nil
	req.TextCompletionRequest = nil
}

func releaseBifrostRequest(req *BifrostRequest) {
	resetBifrostRequest(req)
	bifrostRequestPool.Put(req) // want `noreset`
}

// process stands for the provider call; it does not keep req.
func process(req *BifrostRequest) (string, error) {
	switch {
	case req.ChatRequest != nil:
		return req.ChatRequest.Model, nil
	case req.CachedContentCreateRequest != nil:
		return req.CachedContentCreateRequest.Model, nil
	case req.CachedContentGetRequest != nil:
		return req.CachedContentGetRequest.Model, nil
	}
	return "", nil
}

func ChatCompletion(in *ChatRequest) (string, error) {
	req := getBifrostRequest()
	defer releaseBifrostRequest(req)
	req.RequestType = "chat_completion"
	req.ChatRequest = in
	return process(req)
}

func CachedContentCreate(in *CachedContentRequest) (string, error) {
	req := getBifrostRequest()
	defer releaseBifrostRequest(req)
	req.RequestType = "cached_content_create"
	req.CachedContentCreateRequest = in
	return process(req)
}

func CachedContentGet(in *CachedContentRequest) (string, error) {
	req := getBifrostRequest()
	defer releaseBifrostRequest(req)
	req.RequestType = "cached_content_get"
	req.CachedContentGetRequest = in
	return process(req)
}
