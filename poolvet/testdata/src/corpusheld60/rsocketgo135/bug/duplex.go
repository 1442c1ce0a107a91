// Source: https://github.com/rsocket/rsocket-go/pull/135
// (commit 80656998673a92617024c37fa3af20ad21bd736c, "Fixed processor dispose
// race condition"); the processor pool is jjeffcaii/reactor-go v0.5.5
// mono/processor.go.
//
// Bug: RequestResponse gets a processor (the mono sink) from reactor-go's
// global processor pool and stores it in a requestResponseCallback that is
// registered in dc.messages under the stream id. In the onFinally hook the
// processor was disposed (d.Dispose() puts it back into the pool) while the
// callback holding it was still registered; dc.unregister(sid) ran only
// afterwards. In that window the processor is handed out to a new request,
// and a concurrent destroyHandler/killCallback on the old stream id calls
// sink.Error on it, failing an unrelated request ("use of closed network
// connection" under stress).
//
// Fix: unregister the stream (remove the callback from dc.messages) first,
// and dispose the processor last.
//
// Check: useafterput (d.Dispose() in onFinally returns the processor to the
// pool while the callback stored in dc.messages still references it)
package bug

import (
	"errors"
	"sync"
)

// ---- reactor-go (trimmed) ----

type SignalType int8

const (
	SignalTypeDefault SignalType = iota
	SignalTypeComplete
	SignalTypeCancel
	SignalTypeError
)

type Disposable interface {
	Dispose()
}

type Item struct {
	V interface{}
	E error
}

type Sink interface {
	Success(interface{})
	Error(error)
}

type ProcessorFinallyHook func(SignalType, Disposable)

var globalProcessorPool processorPool

type processorPool struct {
	inner sync.Pool
}

func (pp *processorPool) get() *processor {
	if exist, _ := pp.inner.Get().(*processor); exist != nil {
		return exist
	}
	p := &processor{}
	p.doneNotify.L = p.mu.RLocker()
	return p
}

func (pp *processorPool) put(p *processor) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.item = nil
	p.hookOnFinally = nil
	p.mu.Unlock()
	pp.inner.Put(p)
}

type processor struct {
	mu            sync.RWMutex
	item          *Item
	doneNotify    sync.Cond
	hookOnFinally ProcessorFinallyHook
}

func (p *processor) Dispose() {
	globalProcessorPool.put(p)
}

func (p *processor) Success(any interface{}) {
	p.mu.Lock()
	if p.item != nil {
		p.mu.Unlock()
		return
	}
	p.item = &Item{V: any}
	p.doneNotify.Broadcast()
	p.mu.Unlock()
}

func (p *processor) Error(err error) {
	p.mu.Lock()
	if p.item != nil {
		p.mu.Unlock()
		return
	}
	p.item = &Item{E: err}
	p.doneNotify.Broadcast()
	p.mu.Unlock()
}

// finish is what the processor's subscriber does when the result was
// delivered: it runs the finally hook with the processor as Disposable.
func (p *processor) finish(s SignalType) {
	p.mu.Lock()
	fn := p.hookOnFinally
	p.mu.Unlock()
	if fn != nil {
		fn(s, p)
	}
}

func NewProcessor(hook ProcessorFinallyHook) (*processor, Sink, Disposable) {
	p := globalProcessorPool.get()
	p.mu.Lock()
	p.hookOnFinally = hook
	p.mu.Unlock()
	return p, p, p
}

// ---- rsocket-go internal/socket (trimmed) ----

var (
	errSocketClosed  = errors.New("rsocket: socket closed already")
	errRequestFailed = errors.New("rsocket: send request failed")
)

type callback interface {
	stopWithError(error)
}

type requestResponseCallback struct {
	sink  Sink
	cache interface{}
}

func (s requestResponseCallback) stopWithError(err error) {
	s.sink.Error(err)
}

type DuplexConnection struct {
	messages sync.Map // key=streamID, value=callback
	nextID   uint32
	sent     []uint32
}

func (dc *DuplexConnection) nextStreamID() uint32 {
	dc.nextID += 2
	return dc.nextID
}

func (dc *DuplexConnection) sendCancel(sid uint32) {
	dc.sent = append(dc.sent, sid)
}

func (dc *DuplexConnection) register(sid uint32, msg interface{}) {
	dc.messages.Store(sid, msg)
}

func (dc *DuplexConnection) unregister(sid uint32) {
	dc.messages.Delete(sid)
}

func (dc *DuplexConnection) killCallback(sid uint32) {
	cb, ok := dc.messages.Load(sid)
	if !ok {
		return
	}
	cb.(callback).stopWithError(errRequestFailed)
}

func (dc *DuplexConnection) destroyHandler(err error) {
	var callbacks []callback
	dc.messages.Range(func(_, value interface{}) bool {
		callbacks = append(callbacks, value.(callback))
		return true
	})
	for _, next := range callbacks {
		next.stopWithError(err)
	}
}

// Close closes the connection and fails every registered request.
func (dc *DuplexConnection) Close() error {
	dc.destroyHandler(errSocketClosed)
	return nil
}

// RequestResponse start a request of RequestResponse.
func (dc *DuplexConnection) RequestResponse(req []byte) *processor {
	sid := dc.nextStreamID()

	handler := &requestResponseCallback{}

	onFinally := func(s SignalType, d Disposable) {
		handler.cache = nil
		d.Dispose() // want `useafterput`
		if s == SignalTypeCancel {
			dc.sendCancel(sid)
		}
		dc.unregister(sid)
	}

	m, s, _ := NewProcessor(onFinally)
	handler.sink = s

	dc.register(sid, handler)

	if len(req) == 0 {
		dc.killCallback(sid)
	}
	return m
}
