package noreset

import "sync"

// A pooled encoder context records the pointers a run has seen to detect
// cycles, and goes back to the pool with them: the next run of the same
// value reports a cycle that is not there (goccy/go-json 572d484).
type ssCtx struct {
	seen map[uintptr]struct{}
	out  []byte
}

var ssCtxs = sync.Pool{New: func() any { return &ssCtx{seen: map[uintptr]struct{}{}} }}

func (c *ssCtx) visit(p uintptr) bool {
	seen := c.seen
	if _, ok := seen[p]; ok {
		return false
	}
	seen[p] = struct{}{}
	return true
}

func ssEncode(ptrs []uintptr) bool {
	ctx := ssCtxs.Get().(*ssCtx)
	ok := true
	for _, p := range ptrs {
		ok = ok && ctx.visit(p)
	}
	ctx.out = ctx.out[:0]
	ssCtxs.Put(ctx) // want `ctx goes back to the pool with its map seen still holding the entries this use added`
	return ok
}

// Emptied before the Put: silent.
type ssCtx2 struct {
	seen map[uintptr]bool
}

var ssCtxs2 = sync.Pool{New: func() any { return &ssCtx2{seen: map[uintptr]bool{}} }}

func ssEncode2(ptrs []uintptr) int {
	ctx := ssCtxs2.Get().(*ssCtx2)
	n := 0
	for _, p := range ptrs {
		if !ctx.seen[p] {
			ctx.seen[p] = true
			n++
		}
	}
	clear(ctx.seen)
	ssCtxs2.Put(ctx)
	return n
}

// A map to values is a cache the object keeps on purpose: silent.
type ssCtx3 struct {
	names map[uintptr]string
}

var ssCtxs3 = sync.Pool{New: func() any { return &ssCtx3{names: map[uintptr]string{}} }}

func ssName(p uintptr) string {
	ctx := ssCtxs3.Get().(*ssCtx3)
	s, ok := ctx.names[p]
	if !ok {
		s = "x"
		ctx.names[p] = s
	}
	ssCtxs3.Put(ctx)
	return s
}
