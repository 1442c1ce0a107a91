package noreset

import "sync"

// A pooled context's options are re-initialised field by field by a
// helper that forgets one option a setter turns on and the encoder reads:
// after one call with it, every later call that gets the same context
// keeps it (goccy/go-json 5f6420d's Colorize).
type ifOption struct {
	HTMLEscape   bool
	Indent       bool
	UnorderedMap bool
	Debug        bool
	Colorize     bool
}

type ifContext struct {
	buf []byte
	opt *ifOption
}

var ifContexts = sync.Pool{New: func() any { return &ifContext{opt: &ifOption{}} }}

func ifWithColor(o *ifOption) { o.Colorize = true }

func initIfOption(o *ifOption) { // want `initIfOption re-initialises 4 fields of o, an object of a pooled type, but not Colorize`
	o.HTMLEscape = false
	o.Indent = false
	o.UnorderedMap = false
	o.Debug = false
}

func ifMarshal(v string, opts ...func(*ifOption)) []byte {
	ctx := ifContexts.Get().(*ifContext)
	initIfOption(ctx.opt)
	for _, f := range opts {
		f(ctx.opt)
	}
	out := []byte(v)
	if ctx.opt.Colorize {
		out = append([]byte("\x1b[1m"), out...)
	}
	ctx.buf = ctx.buf[:0]
	ifContexts.Put(ctx)
	return out
}

// All five cleared: silent.
type ifOption2 struct {
	A, B, C, D, E bool
}

type ifContext2 struct{ opt *ifOption2 }

var ifContexts2 = sync.Pool{New: func() any { return &ifContext2{opt: &ifOption2{}} }}

func resetIfOption2(o *ifOption2) {
	o.A, o.B, o.C, o.D, o.E = false, false, false, false, false
}

func ifUse2(set bool) bool {
	ctx := ifContexts2.Get().(*ifContext2)
	resetIfOption2(ctx.opt)
	ctx.opt.E = set
	r := ctx.opt.E
	ifContexts2.Put(ctx)
	return r
}
