// Source: https://github.com/goccy/go-json/commit/5f6420d3d03da6b339aa913080e7f44796df001b
// ("Reset colorize opt").
//
// Bug: Marshal and MarshalWithOption take a *RuntimeContext from
// runtimeContextPool; its Option is reused and cleared by initOption before
// the caller's option functions run. initOption reset HTMLEscape, Indent,
// UnorderedMap and Debug but forgot Colorize, so after one call with the
// Colorize option every later plain Marshal that got the same pooled context
// kept emitting colored (ANSI-escaped) JSON.
// Fix: initOption also sets opt.Colorize = false.
// Check: noreset (initOption, the project's reset function that forgets the
// Colorize field of the pooled context's Option)
package bug

import (
	"strconv"
	"sync"
)

type ColorScheme struct {
	IntHeader string
	IntFooter string
}

type Option struct {
	HTMLEscape   bool
	Indent       bool
	UnorderedMap bool
	Debug        bool
	Colorize     bool
	ColorScheme  *ColorScheme
}

type EncodeOption = Option

type EncodeOptionFunc func(*EncodeOption)

func Colorize(scheme *ColorScheme) EncodeOptionFunc {
	return func(opt *EncodeOption) {
		opt.Colorize = true
		opt.ColorScheme = scheme
	}
}

const bufSize = 1024

var runtimeContextPool = sync.Pool{
	New: func() interface{} {
		return &RuntimeContext{
			Buf:    make([]byte, 0, bufSize),
			Option: &Option{},
		}
	},
}

type RuntimeContext struct {
	Buf    []byte
	Option *Option
}

func TakeRuntimeContext() *RuntimeContext {
	return runtimeContextPool.Get().(*RuntimeContext)
}

func ReleaseRuntimeContext(ctx *RuntimeContext) {
	runtimeContextPool.Put(ctx)
}

func Marshal(v int) ([]byte, error) {
	return MarshalWithOption(v)
}

func MarshalWithOption(v int, optFuncs ...EncodeOptionFunc) ([]byte, error) {
	ctx := TakeRuntimeContext()

	initOption(ctx.Option)
	ctx.Option.HTMLEscape = true
	for _, optFunc := range optFuncs {
		optFunc(ctx.Option)
	}

	buf, err := encode(ctx, v)
	if err != nil {
		ReleaseRuntimeContext(ctx)
		return nil, err
	}

	copied := make([]byte, len(buf))
	copy(copied, buf)

	ReleaseRuntimeContext(ctx)
	return copied, nil
}

func encode(ctx *RuntimeContext, v int) ([]byte, error) {
	b := ctx.Buf[:0]
	if ctx.Option.Colorize {
		b = append(b, ctx.Option.ColorScheme.IntHeader...)
		b = strconv.AppendInt(b, int64(v), 10)
		b = append(b, ctx.Option.ColorScheme.IntFooter...)
	} else {
		b = strconv.AppendInt(b, int64(v), 10)
	}
	ctx.Buf = b
	return b, nil
}

func initOption(opt *EncodeOption) { // want `noreset`
	opt.HTMLEscape = false
	opt.Indent = false
	opt.UnorderedMap = false
	opt.Debug = false
}
