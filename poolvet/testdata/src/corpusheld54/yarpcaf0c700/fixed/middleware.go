// Source: https://github.com/yarpc/yarpc-go/commit/af0c70039be7edad266855b7afccc3d13192d74d
// ("observability: Reset all fields on pooled writer").
//
// Bug: the observability middleware wraps each transport.ResponseWriter in a
// *writer taken from _writerPool (a sync.Pool) by newWriter and returned by
// free(). When the applicationErrorMeta field was added to writer, newWriter
// kept resetting only isApplicationError and ResponseWriter, so a writer that
// had recorded an ApplicationErrorMeta for one call went back to the pool and
// the next call that got it from the pool logged/emitted the previous call's
// error name, code and message ("tests impacted other unrelated tests").
//
// Fix: newWriter resets the whole struct from a zero value:
// *w = writer{ResponseWriter: rw}.
//
// Check: noreset (newWriter, the reset applied to writers coming out of
// _writerPool, forgets applicationErrorMeta)
package fixed

import (
	"context"
	"sync"
)

type Code int

type ApplicationErrorMeta struct {
	Details string
	Name    string
	Code    *Code
}

type ResponseWriter interface {
	Write(p []byte) (int, error)
	SetApplicationError()
}

type ApplicationErrorMetaSetter interface {
	SetApplicationErrorMeta(*ApplicationErrorMeta)
}

type Request struct {
	Procedure string
}

type UnaryHandler interface {
	Handle(ctx context.Context, req *Request, resw ResponseWriter) error
}

var _writerPool = sync.Pool{New: func() interface{} {
	return &writer{}
}}

// writer wraps a transport.ResponseWriter and a transport.ApplicationErrorMetaSetter so the observing middleware can
// detect application errors and their metadata.
type writer struct {
	ResponseWriter

	isApplicationError   bool
	applicationErrorMeta *ApplicationErrorMeta
}

func newWriter(rw ResponseWriter) *writer {
	w := _writerPool.Get().(*writer)
	*w = writer{ResponseWriter: rw} // reset
	return w
}

func (w *writer) SetApplicationError() {
	w.isApplicationError = true
	w.ResponseWriter.SetApplicationError()
}

func (w *writer) SetApplicationErrorMeta(applicationErrorMeta *ApplicationErrorMeta) {
	if applicationErrorMeta == nil {
		return
	}

	w.applicationErrorMeta = applicationErrorMeta
	if appErrMetaSetter, ok := w.ResponseWriter.(ApplicationErrorMetaSetter); ok {
		appErrMetaSetter.SetApplicationErrorMeta(applicationErrorMeta)
	}
}

func (w *writer) free() {
	_writerPool.Put(w)
}

type callResult struct {
	isApplicationError   bool
	applicationErrorMeta *ApplicationErrorMeta
	err                  error
}

// Middleware is logging and metrics middleware for all RPC types.
type Middleware struct {
	results []callResult
}

func (m *Middleware) Handle(ctx context.Context, req *Request, w ResponseWriter, h UnaryHandler) error {
	wrappedWriter := newWriter(w)
	err := h.Handle(ctx, req, wrappedWriter)
	m.results = append(m.results, callResult{
		isApplicationError:   wrappedWriter.isApplicationError,
		applicationErrorMeta: wrappedWriter.applicationErrorMeta,
		err:                  err,
	})
	wrappedWriter.free()
	return err
}
