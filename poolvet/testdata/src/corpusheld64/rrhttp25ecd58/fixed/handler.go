// Source: https://github.com/roadrunner-server/http/commit/25ecd58155c21d6e8cbd237a4999e49a459b31e1
// ("http: address CodeRabbit review feedback"), part of
// https://github.com/roadrunner-server/http/pull/251
// ("http: switch worker delivery from pool.Exec to ConnectRPC").
//
// Bug: Handler.ServeHTTP leases a *HttpHandlerRequest envelope from
// h.reqPool with `req := h.getReq(); defer h.putReq(req)` and submits it to
// the proxy.Queue, whose inbox is drained by PHP workers through the
// FetchRequest RPC. On the client-disconnect and timeout paths the handler
// only cancels the pending response slot and returns, so the deferred putReq
// Reset()s the envelope and puts it back into the pool while, as the commit
// says, "a worker may still hold the pointer (it could still be parked in the
// inbox, or be mid-marshal in FetchRequest's response)".
//
// Fix: the deferred putReq is removed; the envelope is put back only on the
// success branch after the response was received, and leaked to the GC on
// the timeout / disconnect / submit-error paths.
//
// Check: useafterput (Submit hands the pooled request to the queue, which
// outlives ServeHTTP, while `defer h.putReq(req)` recycles it).
package fixed

import (
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// HttpHandlerRequest / HttpHandlerResponse stand in for the generated
// api-go/v6/http/v2 protobuf messages.
type HttpHandlerRequest struct {
	Id         string
	Method     string
	Uri        string
	Protocol   string
	RemoteAddr string
	RawQuery   string
	Header     map[string][]string
	Body       []byte
}

func (x *HttpHandlerRequest) Reset() { *x = HttpHandlerRequest{} }

func (x *HttpHandlerRequest) GetId() string {
	if x != nil {
		return x.Id
	}
	return ""
}

type HttpHandlerResponse struct {
	Status  int64
	Headers map[string][]string
	Body    []byte
}

// Handler serves HTTP requests by handing them off to PHP workers connected
// over ConnectRPC (via Queue). It does not own worker lifecycle.
type Handler struct {
	queue *Queue
	log   *slog.Logger

	requestTimeout time.Duration
	nextID         func() string

	// reqPool reuses *HttpHandlerRequest envelopes across requests.
	reqPool sync.Pool
}

func NewHandler(queue *Queue, log *slog.Logger, timeout time.Duration, nextID func() string) *Handler {
	return &Handler{
		queue:          queue,
		log:            log,
		requestTimeout: timeout,
		nextID:         nextID,
		reqPool: sync.Pool{
			New: func() any { return &HttpHandlerRequest{} },
		},
	}
}

func (h *Handler) getReq() *HttpHandlerRequest {
	return h.reqPool.Get().(*HttpHandlerRequest)
}

func (h *Handler) putReq(req *HttpHandlerRequest) {
	req.Reset()
	h.reqPool.Put(req)
}

// ServeHTTP builds a HttpHandlerRequest, submits it to the queue, and blocks
// on the per-request response channel.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()

	// Envelopes are returned to the pool ONLY on the happy path after we've
	// received a response — at that point ConnectRPC has finished writing the
	// request to the wire and no worker still references the pointer. On
	// timeout / disconnect / submit error paths a worker may still hold the
	// pointer (it could still be parked in the inbox, or be mid-marshal in
	// FetchRequest's response), so we leak the envelope to GC instead of
	// Reset()-corrupting it.
	req := h.getReq()
	req.Id = h.nextID()
	req.Method = r.Method
	req.Uri = r.URL.String()
	req.Protocol = r.Proto
	req.RemoteAddr = FetchIP(r.RemoteAddr)
	req.Header = r.Header
	req.RawQuery = strings.ReplaceAll(r.URL.RawQuery, "\n", "")

	respCh, err := h.queue.Submit(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		h.log.Error("queue submit",
			"id", req.GetId(),
			"elapsed", time.Since(start).Milliseconds(),
			"error", err,
		)
		return
	}

	timeout := time.NewTimer(h.requestTimeout)
	defer timeout.Stop()

	reqID := req.GetId()

	select {
	case resp := <-respCh:
		h.writeResponse(w, resp)
		h.putReq(req)
	case <-r.Context().Done():
		h.queue.Cancel(reqID)
		h.log.Debug("client disconnected",
			"id", reqID,
			"elapsed", time.Since(start).Milliseconds(),
		)
	case <-timeout.C:
		h.queue.Cancel(reqID)
		http.Error(w, "gateway timeout", http.StatusGatewayTimeout)
		h.log.Warn("request timeout",
			"id", reqID,
			"elapsed", time.Since(start).Milliseconds(),
		)
	}
}

func (h *Handler) writeResponse(w http.ResponseWriter, resp *HttpHandlerResponse) {
	for k, v := range resp.Headers {
		for _, vv := range v {
			w.Header().Add(k, vv)
		}
	}
	w.WriteHeader(int(resp.Status))
	_, _ = w.Write(resp.Body)
}

func FetchIP(pair string) string {
	if !strings.ContainsRune(pair, ':') {
		return pair
	}

	addr, _, _ := net.SplitHostPort(pair)
	return addr
}
