// Source: https://github.com/kataras/iris/commit/2573a3e9401d20d6d8eaf9a98997f7120eb0db49
// ("Fix cache corruption due to recorder reuse", cache/entry/entry.go,
// context/response_recorder.go, cache/client/handler.go, Nov 2018)
//
// Bug: the cache handler runs the real handler through the context's
// ResponseRecorder (taken from rrpool) and stores the recorded response
// with e.Reset(status, headers, recorder.Body(), ...). Entry.Reset kept the
// slice as is (e.response.body = body), i.e. the recorder's own chunks
// buffer. When the request ends, EndResponse puts the recorder back into
// rrpool; the next request that records a response gets the same recorder,
// ResetBody() truncates chunks to [0:0] and appends over the bytes the
// cache entry still points at, so cached responses were served corrupted.
//
// Fix: Entry.Reset copies the body (make + copy) instead of keeping the
// recorder's slice.
//
// Check: useafterput (at rrpool.Put in releaseResponseRecorder: the
// recorder's chunks are still stored in a cache entry that outlives the Put)
package fixed

import (
	"net/http"
	"sync"
	"time"
)

// --- context/response_recorder.go ---

var rrpool = sync.Pool{New: func() interface{} { return &ResponseRecorder{} }}

// AcquireResponseRecorder returns a new *AcquireResponseRecorder from the pool.
// Releasing is done automatically when request and response is done.
func AcquireResponseRecorder() *ResponseRecorder {
	return rrpool.Get().(*ResponseRecorder)
}

func releaseResponseRecorder(w *ResponseRecorder) {
	rrpool.Put(w)
}

type ResponseRecorder struct {
	http.ResponseWriter
	chunks     []byte
	headers    http.Header
	statusCode int
}

func (w *ResponseRecorder) BeginRecord(underline http.ResponseWriter) {
	w.ResponseWriter = underline
	w.headers = underline.Header()
	w.statusCode = http.StatusOK
	w.ResetBody()
}

// EndResponse is auto-called when the whole client's request is done,
// releases the response recorder and its underline ResponseWriter.
func (w *ResponseRecorder) EndResponse() {
	releaseResponseRecorder(w)
}

func (w *ResponseRecorder) Write(contents []byte) (int, error) {
	w.chunks = append(w.chunks, contents...)
	return len(contents), nil
}

// Body returns the body tracked from the writer so far
// do not use this for edit.
func (w *ResponseRecorder) Body() []byte {
	return w.chunks
}

// ResetBody resets the response body.
func (w *ResponseRecorder) ResetBody() {
	w.chunks = w.chunks[0:0]
}

func (w *ResponseRecorder) StatusCode() int { return w.statusCode }

// --- context (trimmed) ---

type Context struct {
	w        http.ResponseWriter
	r        *http.Request
	recorder *ResponseRecorder
}

// Recorder starts recording the response.
func (ctx *Context) Recorder() *ResponseRecorder {
	if ctx.recorder == nil {
		ctx.recorder = AcquireResponseRecorder()
		ctx.recorder.BeginRecord(ctx.w)
	}
	return ctx.recorder
}

func (ctx *Context) Write(b []byte) (int, error) {
	if ctx.recorder != nil {
		return ctx.recorder.Write(b)
	}
	return ctx.w.Write(b)
}

// EndRequest is called by the router once the handlers are done.
func (ctx *Context) EndRequest() {
	if ctx.recorder != nil {
		ctx.w.WriteHeader(ctx.recorder.StatusCode())
		ctx.w.Write(ctx.recorder.Body())
		ctx.recorder.EndResponse()
		ctx.recorder = nil
	}
}

// --- cache/entry/entry.go ---

type Response struct {
	statusCode int
	body       []byte
}

func (r *Response) Body() []byte { return r.body }

type Entry struct {
	life      time.Duration
	expiresAt time.Time
	response  *Response
}

func (e *Entry) Reset(statusCode int, body []byte) {
	if e.response == nil {
		e.response = &Response{}
	}
	if statusCode > 0 {
		e.response.statusCode = statusCode
	}
	e.response.body = make([]byte, len(body))
	copy(e.response.body, body)
	e.expiresAt = time.Now().Add(e.life)
}

// --- cache/client/handler.go (trimmed) ---

type Handler struct {
	mu      sync.RWMutex
	entries map[string]*Entry
}

func (h *Handler) ServeHTTP(ctx *Context, bodyHandler func(*Context)) {
	key := ctx.r.URL.RequestURI()

	h.mu.RLock()
	e, found := h.entries[key]
	h.mu.RUnlock()
	if found && time.Now().Before(e.expiresAt) {
		ctx.Write(e.response.Body())
		return
	}
	if !found {
		e = &Entry{life: time.Minute}
		h.mu.Lock()
		h.entries[key] = e
		h.mu.Unlock()
	}

	recorder := ctx.Recorder()
	bodyHandler(ctx)

	// no need to copy the body, its already done inside
	body := recorder.Body()
	if len(body) == 0 {
		return
	}
	e.Reset(recorder.StatusCode(), body)
}

// Serve is the router's per-request path.
func Serve(h *Handler, w http.ResponseWriter, r *http.Request, bodyHandler func(*Context)) {
	ctx := &Context{w: w, r: r}
	h.ServeHTTP(ctx, bodyHandler)
	ctx.EndRequest()
}
