// Package bug reproduces the shape reported in langwatch/tasks#585
// (https://github.com/langwatch/tasks/issues/585), also
// langwatch/langwatch#6853, about maximhq/bifrost core v1.4.22: for a
// streaming response that is HTTP 200 but carries an error in the stream,
// the stream finalizer (guarded by a sync.Once) releases the pooled message
// and the error path that inspects the first chunk releases it again; the
// once-guard protects only the finalizer against re-entry.
//
// Check: doubleput (a once-guarded finalizer Put plus an independent
// release on the error path).
package bug

import (
	"errors"
	"sync"
)

type chunk struct {
	data []byte
	err  error
}

type streamMessage struct {
	stream chan chunk
}

var streamMessagePool = sync.Pool{New: func() any { return &streamMessage{stream: make(chan chunk, 16)} }}

func releaseStreamMessage(m *streamMessage) {
	streamMessagePool.Put(m)
}

func Stream(produce func(chan<- chunk)) (<-chan chunk, error) {
	msg := streamMessagePool.Get().(*streamMessage)
	var once sync.Once
	finalize := func() { once.Do(func() { releaseStreamMessage(msg) }) }
	out := make(chan chunk, 16)
	go func() {
		defer finalize()
		produce(msg.stream)
	}()
	first, ok := <-msg.stream
	if !ok || first.err != nil {
		releaseStreamMessage(msg) // want `twice|again|more than once|doubleput|may still use|handed to`
		if first.err == nil {
			first.err = errors.New("empty stream")
		}
		return nil, first.err
	}
	out <- first
	return out, nil
}
