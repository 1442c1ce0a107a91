// Package bug reproduces the shape of maximhq/bifrost#4871
// (https://github.com/maximhq/bifrost/pull/4871): releaseChannelMessage put
// ChannelMessage objects back with the embedded request (the parsed body)
// and the per-request context still set, and with response/error channels
// that could still hold an undelivered value, so idle pooled messages
// pinned request- and response-sized memory.
//
// Check: noreset (the release helper resets some fields and forgets
// others).
package bug

import (
	"context"
	"sync"
)

type BifrostRequest struct {
	Model string
	Body  []byte
}

type ChannelMessage struct {
	BifrostRequest
	Context  context.Context
	Response chan []byte
	Err      chan error
}

var channelMessagePool = sync.Pool{New: func() any {
	return &ChannelMessage{Response: make(chan []byte, 1), Err: make(chan error, 1)}
}}

func getChannelMessage(ctx context.Context, req BifrostRequest) *ChannelMessage {
	msg := channelMessagePool.Get().(*ChannelMessage)
	msg.BifrostRequest = req
	msg.Context = ctx
	return msg
}

func releaseChannelMessage(msg *ChannelMessage) {
	channelMessagePool.Put(msg) // want `noreset|not reset|clear|stale|forg|zero`
}

func Do(ctx context.Context, req BifrostRequest, work func(*ChannelMessage)) []byte {
	msg := getChannelMessage(ctx, req)
	go work(msg)
	var out []byte
	select {
	case out = <-msg.Response:
	case <-msg.Err:
	}
	releaseChannelMessage(msg)
	return out
}
