// Package bug reproduces the shape of maximhq/bifrost#1670
// (https://github.com/maximhq/bifrost/pull/1670, review thread on
// core/providers/anthropic/anthropic.go): each streaming chunk carried a
// pooled chat response, the post-LLM hooks started a goroutine that read the
// response later (the deferred span reads Usage), and the chunk release put
// the chat response back right away. The next Acquire zeroed it under the
// goroutine, which then panicked on a nil Usage.
//
// Check: useafterput (hand-off to a goroutine through a helper, then a Put
// wrapper releases the object without waiting; reported at the release).
package bug

import "sync"

type Usage struct {
	PromptTokens     int
	CompletionTokens int
}

type ChatResponse struct {
	ID    string
	Model string
	Usage *Usage
}

var chatResponsePool = sync.Pool{New: func() any { return &ChatResponse{} }}

func AcquireChatResponse() *ChatResponse {
	r := chatResponsePool.Get().(*ChatResponse)
	*r = ChatResponse{}
	return r
}

func ReleaseChatResponse(r *ChatResponse) {
	if r == nil {
		return
	}
	*r = ChatResponse{}
	chatResponsePool.Put(r)
}

// StreamChunk is what the provider hands to the plugin pipeline.
type StreamChunk struct {
	Chat *ChatResponse
}

// ReleaseStreamChunk gives the chunk's chat response back to its pool.
func ReleaseStreamChunk(c *StreamChunk) {
	ReleaseChatResponse(c.Chat)
	c.Chat = nil
}

type Tracer struct {
	mu    sync.Mutex
	spans map[string]int
}

func (t *Tracer) completeDeferredSpan(id string, u *Usage) {
	t.mu.Lock()
	t.spans[id] = u.PromptTokens + u.CompletionTokens
	t.mu.Unlock()
}

// RunPostLLMHooks finishes the span in the background, reading the
// response after this function has returned.
func (t *Tracer) RunPostLLMHooks(resp *ChatResponse) {
	go func() {
		t.completeDeferredSpan(resp.ID, resp.Usage)
	}()
}

type Provider struct {
	tracer *Tracer
	emit   func(id, model string)
}

func (p *Provider) handleChunk(id, model string, in, out int) {
	chat := AcquireChatResponse()
	chat.ID = id
	chat.Model = model
	chat.Usage = &Usage{PromptTokens: in, CompletionTokens: out}
	chunk := &StreamChunk{Chat: chat}

	p.tracer.RunPostLLMHooks(chunk.Chat)
	p.emit(chat.ID, chat.Model)
	ReleaseStreamChunk(chunk) // want `useafterput`
}
