// Package bug reproduces the shape of DataDog/dd-trace-go#4756 (https://github.com/DataDog/dd-trace-go/pull/4756,
// "fix(ddtrace/tracer): fix race condition in ETP"): the trace writer's flush goroutine sends a pooled
// v1 payload as the HTTP request body and, in its deferred cleanup, puts the payload back into
// payloadV1Pool as soon as send returns. But the HTTP transport's write loop can still be reading the
// body and calls Body.Close (payloadV1.Close clears the payload) after RoundTrip has returned, so it
// touches a payload that is already back in the pool and possibly in use by the next flush. The fix
// returns the payload to the pool only after both the flush and the body close are done (a two-bit
// handoff).
// Check: useafterput (payload handed to a transport goroutine that reads and closes it after the
// deferred Put; report at the send call that hands it off).
package bug

import (
	"io"
	"sync"
	"sync/atomic"
)

type payloadV1 struct {
	header  []byte
	buf     []byte
	readOff int
	count   uint32

	// poolState coordinates returning this payload to the pool after all HTTP
	// activity is done. RoundTrip can return before writeLoop calls Body.Close.
	poolState atomic.Uint32
}

const (
	pv1StateFlushDone  uint32 = 1 << 0
	pv1StateBodyClosed uint32 = 1 << 1
)

// handoff marks one owner as done with the payload and returns it to the pool
// once both the flush goroutine and the request body close are complete.
func (p *payloadV1) handoff(ownBit uint32) {
	counterpart := (pv1StateFlushDone | pv1StateBodyClosed) &^ ownBit
	if old := p.poolState.Or(ownBit); old == counterpart {
		putPayloadV1(p)
	}
}

var payloadV1Pool = sync.Pool{New: func() interface{} { return &payloadV1{} }}

const maxPooledPayload = 8 << 20

func getPayloadV1() *payloadV1 {
	p := payloadV1Pool.Get().(*payloadV1)
	p.clear()
	return p
}

func putPayloadV1(p *payloadV1) {
	if cap(p.buf) > maxPooledPayload {
		return
	}
	p.clear()
	payloadV1Pool.Put(p)
}

func (p *payloadV1) clear() {
	p.header = p.header[:0]
	p.buf = p.buf[:0]
	p.readOff = 0
	atomic.StoreUint32(&p.count, 0)
	p.poolState.Store(0)
}

func (p *payloadV1) push(b []byte) {
	p.buf = append(p.buf, b...)
	atomic.AddUint32(&p.count, 1)
}

func (p *payloadV1) itemCount() int { return int(atomic.LoadUint32(&p.count)) }

func (p *payloadV1) Read(b []byte) (int, error) {
	if p.readOff >= len(p.buf) {
		return 0, io.EOF
	}
	n := copy(b, p.buf[p.readOff:])
	p.readOff += n
	return n, nil
}

func (p *payloadV1) Close() error {
	p.handoff(pv1StateBodyClosed)
	return nil
}

// httpTransport mimics net/http: RoundTrip may return before the write loop
// has finished with the request body and closed it.
type httpTransport struct {
	sent chan []byte
}

func (t *httpTransport) writeLoop(body io.ReadCloser) {
	data, _ := io.ReadAll(body)
	t.sent <- data
	body.Close()
}

func (t *httpTransport) send(p *payloadV1) (io.ReadCloser, error) {
	go t.writeLoop(p)
	return io.NopCloser(nil), nil
}

type agentTraceWriter struct {
	mu        sync.Mutex
	payload   *payloadV1
	transport *httpTransport
	climit    chan struct{}
	wg        sync.WaitGroup
}

func (h *agentTraceWriter) flush() {
	h.mu.Lock()
	oldp := h.payload
	if oldp.itemCount() == 0 {
		h.mu.Unlock()
		return
	}
	h.payload = getPayloadV1()
	h.mu.Unlock()

	h.climit <- struct{}{}
	h.wg.Add(1)
	go func(p *payloadV1) {
		defer func() {
			// The payload goes back to the pool once the body is closed too.
			p.handoff(pv1StateFlushDone)
			<-h.climit
			h.wg.Done()
		}()

		rc, err := h.transport.send(p)
		if err != nil {
			return
		}
		rc.Close()
	}(oldp)
}
