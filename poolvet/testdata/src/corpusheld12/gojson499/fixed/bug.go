// Package fixed is the fixed twin of gojson499: the release helper drops
// the caller's context (and the option flags) before the RuntimeContext
// goes back to the pool, so no later Marshal sees it and the idle object
// keeps nothing alive (the fix goccy/go-json#499 asks for).
package fixed

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
	ctx.Option.Flag = 0
	ctx.Option.Context = nil
	runtimeContextPool.Put(ctx)
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
