// Package bug reproduces the shape described in rs/xlog#17
// (https://github.com/rs/xlog/pull/17): the xlog HTTP middleware takes a
// logger from a sync.Pool, stores it in the request context, calls the next
// handler and puts the logger back when that handler returns. Handlers that
// start a background task with the request context keep using the logger
// after it went back to the pool, where the next request resets and reuses
// it.
//
// Check: useafterput (hand-off: the logger, carried by a context.WithValue
// context, is captured by a goroutine started in a handler of the package;
// the middleware then puts the logger back without waiting; the report is at
// the Put).
package bug

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

type logger struct {
	level  int
	output io.Writer
	fields map[string]any
}

func (l *logger) SetField(k string, v any) { l.fields[k] = v }

func (l *logger) Info(msg string) {
	if l.output == nil || l.level > 1 {
		return
	}
	fmt.Fprintln(l.output, msg, l.fields)
}

var loggerPool = sync.Pool{New: func() any { return &logger{} }}

type key int

const logKey key = 0

func NewContext(ctx context.Context, l *logger) context.Context {
	return context.WithValue(ctx, logKey, l)
}

func FromContext(ctx context.Context) *logger {
	l, _ := ctx.Value(logKey).(*logger)
	return l
}

type Handler struct {
	level  int
	output io.Writer
}

func (h *Handler) NewLogger() *logger {
	l := loggerPool.Get().(*logger)
	l.level = h.level
	l.output = h.output
	l.fields = map[string]any{}
	return l
}

// serveOrder is an application handler that records an audit line in the
// background.
func serveOrder(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	FromContext(ctx).SetField("path", r.URL.Path)
	go func() {
		FromContext(ctx).Info("order audited")
	}()
	w.WriteHeader(http.StatusAccepted)
}

func (h *Handler) ServeHTTPC(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	l := h.NewLogger()
	ctx = NewContext(ctx, l)
	serveOrder(ctx, w, r)
	l.output = nil
	l.fields = nil
	loggerPool.Put(l) // want `useafterput`
}
