// Package fixed is the fix of maximhq/bifrost#4871
// (https://github.com/maximhq/bifrost/pull/4871): drain the channels, zero
// the request and clear the context before the Put.
package fixed

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
	select {
	case <-msg.Response:
	default:
	}
	select {
	case <-msg.Err:
	default:
	}
	msg.BifrostRequest = BifrostRequest{}
	msg.Context = nil
	channelMessagePool.Put(msg)
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
