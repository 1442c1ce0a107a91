// Package fixed is the fixed twin of rs/xlog#17
// (https://github.com/rs/xlog/pull/17): as the PR describes, the handler
// gives its background task a copy of the request logger (xlog.Copy), which
// is not pooled, so the middleware may put the request logger back.
package fixed

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

// Copy returns an unpooled logger with the same settings and fields.
func (l *logger) Copy() *logger {
	l2 := &logger{level: l.level, output: l.output, fields: make(map[string]any, len(l.fields))}
	for k, v := range l.fields {
		l2.fields[k] = v
	}
	return l2
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
	bg := FromContext(ctx).Copy()
	go func() {
		bg.Info("order audited")
	}()
	w.WriteHeader(http.StatusAccepted)
}

func (h *Handler) ServeHTTPC(ctx context.Context, w http.ResponseWriter, r *http.Request) {
	l := h.NewLogger()
	ctx = NewContext(ctx, l)
	serveOrder(ctx, w, r)
	l.output = nil
	l.fields = nil
	loggerPool.Put(l)
}
