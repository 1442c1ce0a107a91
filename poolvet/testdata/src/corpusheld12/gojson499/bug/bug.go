// Package bug reproduces the shape of goccy/go-json#499
// (https://github.com/goccy/go-json/issues/499): MarshalContext stores the
// caller's context.Context in the pooled RuntimeContext's options, and
// ReleaseRuntimeContext puts the RuntimeContext back without clearing it.
// A later plain Marshal that draws the same RuntimeContext hands the first
// caller's context to a value's MarshalJSON(ctx), and the idle object keeps
// that context (and all it carries) alive.
// (The internal encoder package is folded into this one. The report is
// expected at the Put inside the release helper, where the docs place a
// Put that leaves a user's reference in the object.)
//
// Check: noreset (a pooled object put back still holding the context a
// caller passed in)
package bug

import (
	"context"
	"sync"
)

type OptionFlag uint8

const (
	HTMLEscapeOption OptionFlag = 1 << iota
	NormalizeUTF8Option
	ContextOption
)

type Option struct {
	Flag    OptionFlag
	Context context.Context
}

type RuntimeContext struct {
	Ptrs   []uintptr
	Option *Option
}

var runtimeContextPool = sync.Pool{
	New: func() any {
		return &RuntimeContext{
			Ptrs:   make([]uintptr, 128),
			Option: &Option{},
		}
	},
}

func TakeRuntimeContext() *RuntimeContext {
	return runtimeContextPool.Get().(*RuntimeContext)
}

func ReleaseRuntimeContext(ctx *RuntimeContext) {
	runtimeContextPool.Put(ctx) // want `noreset`
}

// MarshalerContext is go-json's context-aware marshaler (there the method
// is MarshalJSON(context.Context); renamed here to keep go vet quiet).
type MarshalerContext interface {
	MarshalContextJSON(context.Context) ([]byte, error)
}

// encode marshals v; a MarshalerContext gets the context in the options.
func encode(rctx *RuntimeContext, v any) ([]byte, error) {
	m, ok := v.(MarshalerContext)
	if !ok {
		return []byte("null"), nil
	}
	c := rctx.Option.Context
	if c == nil {
		c = context.Background()
	}
	return m.MarshalContextJSON(c)
}

func MarshalContext(ctx context.Context, v any) ([]byte, error) {
	rctx := TakeRuntimeContext()
	rctx.Option.Flag = HTMLEscapeOption | NormalizeUTF8Option | ContextOption
	rctx.Option.Context = ctx

	buf, err := encode(rctx, v)
	if err != nil {
		ReleaseRuntimeContext(rctx)
		return nil, err
	}
	ReleaseRuntimeContext(rctx)
	return buf, nil
}

func Marshal(v any) ([]byte, error) {
	rctx := TakeRuntimeContext()
	rctx.Option.Flag = HTMLEscapeOption | NormalizeUTF8Option

	buf, err := encode(rctx, v)
	if err != nil {
		ReleaseRuntimeContext(rctx)
		return nil, err
	}
	ReleaseRuntimeContext(rctx)
	return buf, nil
}
