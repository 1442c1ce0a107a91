// Package fixed is a fixed twin of the bifrost double release reported in
// langwatch/tasks#585 (https://github.com/langwatch/tasks/issues/585): the
// error path leaves the release to the stream goroutine's once-guarded
// finalizer, so the message is released exactly once, after its last use.
package fixed

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
		if first.err == nil {
			first.err = errors.New("empty stream")
		}
		return nil, first.err
	}
	out <- first
	return out, nil
}
