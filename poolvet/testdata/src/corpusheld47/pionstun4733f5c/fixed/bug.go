// Package bug reproduces the shape of pion/stun commit 4733f5c
// (https://github.com/pion/stun/commit/4733f5c5e9f4076e0157f0bde6eff3666220e9c6,
// "client: fix callbackWaitHandler.reset"): Client.Do takes a
// callbackWaitHandler from a sync.Pool, installs the caller's callback, and in
// a deferred closure calls reset() and puts it back. reset() cleared the
// processed flag and the callback but forgot the handler field that
// setCallback fills in lazily, so pooled handlers went back to the pool still
// carrying the handler of their previous use. The fix clears handler in reset.
// Check: noreset (fixed twin: reset clears every field set during use).
package bug

import (
	"errors"
	"sync"
)

// Event is a transaction result.
type Event struct {
	Error error
}

// Handler handles a transaction event.
type Handler func(e Event)

type callbackWaitHandler struct {
	handler   Handler
	callback  func(event Event)
	cond      *sync.Cond
	processed bool
}

func (s *callbackWaitHandler) HandleEvent(e Event) {
	if s.callback == nil {
		panic("s.callback is nil")
	}
	s.callback(e)
	s.cond.L.Lock()
	s.processed = true
	s.cond.Broadcast()
	s.cond.L.Unlock()
}

func (s *callbackWaitHandler) wait() {
	s.cond.L.Lock()
	for !s.processed {
		s.cond.Wait()
	}
	s.cond.L.Unlock()
}

func (s *callbackWaitHandler) setCallback(f func(event Event)) {
	if f == nil {
		panic("f is nil")
	}
	s.callback = f
	if s.handler == nil {
		s.handler = s.HandleEvent
	}
}

func (s *callbackWaitHandler) reset() {
	s.processed = false
	s.callback = nil
	s.handler = nil
}

var callbackWaitHandlerPool = sync.Pool{
	New: func() interface{} {
		return &callbackWaitHandler{
			cond: sync.NewCond(new(sync.Mutex)),
		}
	},
}

// ErrClientNotInitialized means that the client has no transport.
var ErrClientNotInitialized = errors.New("client not initialized")

// Client is a STUN client.
type Client struct {
	start func(raw []byte, h Handler) error
}

// Indicate sends raw without waiting for a response.
func (c *Client) Indicate(raw []byte) error {
	return c.start(raw, nil)
}

// Do starts a transaction and waits until f was called.
func (c *Client) Do(raw []byte, f func(Event)) error {
	if c == nil || c.start == nil {
		return ErrClientNotInitialized
	}
	if f == nil {
		return c.Indicate(raw)
	}
	h := callbackWaitHandlerPool.Get().(*callbackWaitHandler)
	h.setCallback(f)
	defer func() {
		h.reset()
		callbackWaitHandlerPool.Put(h)
	}()
	if err := c.start(raw, h.handler); err != nil {
		return err
	}
	h.wait()
	return nil
}
