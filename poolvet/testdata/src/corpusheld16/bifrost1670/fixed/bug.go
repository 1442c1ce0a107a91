// Package fixed is the fixed twin of maximhq/bifrost#1670
// (https://github.com/maximhq/bifrost/pull/1670): chat responses carried by
// streaming chunks are no longer released to the pool when the chunk is
// done, because the post-LLM hook goroutine may still read them; the garbage
// collector reclaims them once every reference is gone.
package fixed

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

// StreamChunk is what the provider hands to the plugin pipeline.
type StreamChunk struct {
	Chat *ChatResponse
}

// ReleaseStreamChunk drops the chunk's reference only: the chat response
// may still be read by a hook goroutine, so it is not put back.
func ReleaseStreamChunk(c *StreamChunk) {
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
	ReleaseStreamChunk(chunk)
}
