// Package bug reproduces the shape of ThreeDotsLabs/watermill-http#21
// (https://github.com/ThreeDotsLabs/watermill-http/pull/21, "fix(sse): clone chi
// RouteContext for streaming goroutine"): chi keeps its per-request routing
// context (URL params) in a sync.Pool, attaches it to the request, and resets it
// and puts it back as soon as Mux.ServeHTTP's handler returns. The SSE handler
// starts a goroutine that keeps calling StreamAdapter.NextStreamResponse(r, msg)
// with the original request, and adapters read chi.URLParam(r, ...). When the
// client goes away the handler returns, the routing context is recycled for the
// next request, and the still-running goroutine reads (and races with) another
// request's params. The fix copies the routing context onto a detached request
// before starting the goroutine. (chi's mux is modelled with a small router.)
//
// Check: useafterput (the request, which carries the pooled routing context, is
// handed to a goroutine that outlives the Put in ServeHTTP; report at the hand-off).
package bug

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

type ctxKey struct{}

var RouteCtxKey = ctxKey{}

// RouteParams holds URL parameter keys and values.
type RouteParams struct {
	Keys, Values []string
}

func (s *RouteParams) Add(key, value string) {
	s.Keys = append(s.Keys, key)
	s.Values = append(s.Values, value)
}

// Context is the routing context of one request; it is pooled by Mux.
type Context struct {
	URLParams     RouteParams
	RoutePattern  string
	RouteMethod   string
	routePatterns []string
}

func (x *Context) Reset() {
	x.URLParams.Keys = x.URLParams.Keys[:0]
	x.URLParams.Values = x.URLParams.Values[:0]
	x.RoutePattern = ""
	x.RouteMethod = ""
	x.routePatterns = x.routePatterns[:0]
}

func (x *Context) URLParam(key string) string {
	for k := len(x.URLParams.Keys) - 1; k >= 0; k-- {
		if x.URLParams.Keys[k] == key {
			return x.URLParams.Values[k]
		}
	}
	return ""
}

func RouteContext(ctx context.Context) *Context {
	val, _ := ctx.Value(RouteCtxKey).(*Context)
	return val
}

func URLParam(r *http.Request, key string) string {
	if rctx := RouteContext(r.Context()); rctx != nil {
		return rctx.URLParam(key)
	}
	return ""
}

type route struct {
	prefix  string
	param   string
	handler http.HandlerFunc
}

type Mux struct {
	routes []route
	pool   *sync.Pool
}

func NewMux() *Mux {
	return &Mux{pool: &sync.Pool{New: func() interface{} { return &Context{} }}}
}

// Handle registers pattern "/prefix/{param}".
func (mx *Mux) Handle(pattern string, h http.HandlerFunc) {
	i := strings.Index(pattern, "{")
	mx.routes = append(mx.routes, route{
		prefix:  pattern[:i],
		param:   strings.Trim(pattern[i:], "{}"),
		handler: h,
	})
}

func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rctx := mx.pool.Get().(*Context)
	rctx.Reset()
	r = r.WithContext(context.WithValue(r.Context(), RouteCtxKey, rctx))

	for _, rt := range mx.routes {
		if strings.HasPrefix(r.URL.Path, rt.prefix) {
			rctx.RouteMethod = r.Method
			rctx.RoutePattern = rt.prefix + "{" + rt.param + "}"
			rctx.URLParams.Add(rt.param, strings.TrimPrefix(r.URL.Path, rt.prefix))
			rt.handler(w, r)
			break
		}
	}

	// Serve the request and once it is done, put the request context back.
	mx.pool.Put(rctx)
}

type Message struct {
	UUID    string
	Payload []byte
}

// StreamAdapter builds the responses of one SSE stream.
type StreamAdapter interface {
	InitialStreamResponse(w http.ResponseWriter, r *http.Request) (interface{}, bool)
	NextStreamResponse(r *http.Request, msg *Message) (interface{}, bool)
}

type sseHandler struct {
	messages      <-chan *Message
	streamAdapter StreamAdapter
}

func (h sseHandler) handleEventStream(w http.ResponseWriter, r *http.Request) {
	response, ok := h.streamAdapter.InitialStreamResponse(w, r)
	if !ok {
		return
	}

	responsesChan := make(chan interface{})

	// chi recycles the routing context once this handler returns, but the
	// goroutine below may outlive it: give it a detached copy.
	r = detachRouteContext(r)

	go func() {
		defer close(responsesChan)

		select {
		case responsesChan <- response:
		case <-r.Context().Done():
			return
		}

		for {
			select {
			case msg, ok := <-h.messages:
				if !ok {
					return
				}
				nextResponse, ok := h.streamAdapter.NextStreamResponse(r, msg)
				select {
				case <-r.Context().Done():
					return
				default:
				}
				if ok {
					select {
					case responsesChan <- nextResponse:
					case <-r.Context().Done():
						return
					}
				}
			case <-r.Context().Done():
				return
			}
		}
	}()

	respond(w, r, responsesChan)
}

func detachRouteContext(r *http.Request) *http.Request {
	rctx := RouteContext(r.Context())
	if rctx == nil {
		return r
	}
	cp := &Context{
		URLParams: RouteParams{
			Keys:   append([]string(nil), rctx.URLParams.Keys...),
			Values: append([]string(nil), rctx.URLParams.Values...),
		},
		RoutePattern:  rctx.RoutePattern,
		RouteMethod:   rctx.RouteMethod,
		routePatterns: append([]string(nil), rctx.routePatterns...),
	}
	return r.WithContext(context.WithValue(r.Context(), RouteCtxKey, cp))
}

// respond writes events until the stream ends or the client goes away.
func respond(w http.ResponseWriter, r *http.Request, responses <-chan interface{}) {
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	for {
		select {
		case <-r.Context().Done():
			return
		case v, ok := <-responses:
			if !ok {
				return
			}
			fmt.Fprintf(w, "data: %v\n\n", v)
			if flusher != nil {
				flusher.Flush()
			}
		}
	}
}

// postAdapter reads the post id from the route, as adapters typically do.
type postAdapter struct{}

func (postAdapter) InitialStreamResponse(w http.ResponseWriter, r *http.Request) (interface{}, bool) {
	return "post " + URLParam(r, "id"), true
}

func (postAdapter) NextStreamResponse(r *http.Request, msg *Message) (interface{}, bool) {
	id := URLParam(r, "id")
	if id != string(msg.Payload) {
		return nil, false
	}
	return "post " + id + " updated", true
}

func NewServer(messages <-chan *Message) *Mux {
	mx := NewMux()
	h := sseHandler{messages: messages, streamAdapter: postAdapter{}}
	mx.Handle("/posts/{id}", h.handleEventStream)
	return mx
}
