// Package fixed applies the fix proposed on maximhq/bifrost#3195
// (https://github.com/maximhq/bifrost/pull/3195): resetBifrostRequest also
// clears the cached-content request pointers.
package fixed

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

func resetBifrostRequest(req *BifrostRequest) {
	req.RequestType = ""
	req.ChatRequest = nil
	req.TextCompletionRequest = nil
	req.CachedContentCreateRequest = nil
	req.CachedContentGetRequest = nil
}

func releaseBifrostRequest(req *BifrostRequest) {
	resetBifrostRequest(req)
	bifrostRequestPool.Put(req)
}

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
