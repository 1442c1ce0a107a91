package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A sync.Pool of slices ([]T, or *[]T) whose users append to what Get
// returns, where a Put gives a slice back still holding what its last user
// appended on some path (an error return before buf = buf[:0]): the next
// user appends after those elements and sends, writes or checksums them
// as its own (prometheus/prometheus#19699's WAL records). Reported as
// noreset at the Put.

// checkUntruncatedPut reports the Put p of a slice that, on some path to
// it, holds elements appended since the Get, into a pool some user of
// which appends to the slice it gets without truncating it first.
func (c *checker) checkUntruncatedPut(fn *ssa.Function, p *putSite) {
	if p.prim != syncPut || len(p.args) == 0 || poolOfTypeParams(fn, p) {
		return
	}
	mi, ok := p.arg.(*ssa.MakeInterface)
	if !ok {
		return
	}
	x := mi.X
	ptr := false
	switch t := x.Type().Underlying().(type) {
	case *types.Slice:
	case *types.Pointer:
		if _, ok := t.Elem().Underlying().(*types.Slice); !ok {
			return
		}
		ptr = true
	default:
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	appending := false
	for _, pg := range c.poolGets(id) {
		for _, v := range getValues(pg.g.call) {
			if appendsUntruncated(pg.fn, v, ptr) {
				appending = true
			}
		}
	}
	if !appending {
		return
	}
	var dirty bool
	if ptr {
		dirty = grownBefore(fn, x, p.instr, p.deferred)
	} else {
		dirty = holdsAppended(x, p.instr, p.deferred, 0)
		if !dirty && c.callbackPutsUntruncated(fn, x) {
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool with the length and elements its last user left, and the pool's users append to the slice they get: the next one appends after this one's data; put it back truncated (b[:0])",
				c.objName(p))
			return
		}
	}
	if !dirty {
		return
	}
	c.report(checkNoReset, p.instr.Pos(), nil,
		"%s goes back to the pool holding what was appended to it since the Get (on some path at least), while the pool's users append to the slice they get: the next one appends after this one's data; put it back truncated (b[:0])",
		c.objName(p))
}

// callbackPutsUntruncated reports whether x is *prm, the slice a pointer
// parameter of fn points to, fn is called by nothing in the package (a
// finalizer, a callback), and fn never truncates *prm: what the slice's
// last user appended goes back with it (scroll-tech/go-ethereum#104's
// finalizer put back FormatLogs' results as they were).
func (c *checker) callbackPutsUntruncated(fn *ssa.Function, x ssa.Value) bool {
	ld, ok := x.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	prm, ok := ld.X.(*ssa.Parameter)
	if !ok || len(c.callSitesOf(fn)) > 0 {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == prm {
				return false // *prm = (*prm)[:0], or any new value
			}
		}
	}
	return true
}

// appendsUntruncated reports whether fn appends to v, a slice (or, with
// ptr, *v of a *[]T) that a Get returned, before anything truncates it:
// append(v, ...), or a call given v that returns a slice of its type (an
// encoder appending to its argument).
func appendsUntruncated(fn *ssa.Function, v ssa.Value, ptr bool) bool {
	var bases []ssa.Value // the values appended to, and where they come from
	from := map[ssa.Value]ssa.Instruction{}
	if ptr {
		for _, r := range *v.Referrers() {
			if ld, ok := r.(*ssa.UnOp); ok && ld.X == v {
				bases = append(bases, ld)
				from[ld], _ = v.(ssa.Instruction)
			}
		}
	} else {
		bases = append(bases, v)
		for _, r := range *v.Referrers() {
			// buf := pool.Get().([]byte) captured by a closure: the
			// variable's cell, loaded later.
			if st, ok := r.(*ssa.Store); ok && st.Val == v {
				if al, ok := st.Addr.(*ssa.Alloc); ok {
					for _, r2 := range *al.Referrers() {
						if ld, ok := r2.(*ssa.UnOp); ok && ld.X == ssa.Value(al) {
							bases = append(bases, ld)
							from[ld] = st
						}
					}
				}
			}
		}
	}
	for _, b := range bases {
		if b.Referrers() == nil {
			continue
		}
		for _, r := range *b.Referrers() {
			call, ok := r.(*ssa.Call)
			if !ok || !appendsToSlice(call, b) {
				continue
			}
			start := from[b]
			if start == nil {
				return true
			}
			addr := v
			if st, ok := start.(*ssa.Store); ok {
				addr = st.Addr
			}
			if reachesWithoutStore(start, b.(ssa.Instruction), addr, false) {
				return true
			}
		}
	}
	return false
}

// appendsToSlice reports whether call appends to the slice s: append(s, ...),
// or a function given s that returns a slice of s's type.
func appendsToSlice(call *ssa.Call, s ssa.Value) bool {
	args := call.Call.Args
	if bi, ok := call.Call.Value.(*ssa.Builtin); ok {
		return bi.Name() == "append" && len(args) > 0 && args[0] == s
	}
	if !types.Identical(call.Type(), s.Type()) {
		return false
	}
	for _, a := range args {
		if a == s {
			return true
		}
	}
	return false
}

// holdsAppended reports whether the slice x, put at put, holds on some path
// what was appended to it: an append or an appending call, through phis,
// re-slices that keep elements, and the variable a deferred closure
// captured (then on some path from a store of such a value to a return).
func holdsAppended(x ssa.Value, put ssa.Instruction, deferred bool, depth int) bool {
	if depth > 8 {
		return false
	}
	switch v := x.(type) {
	case *ssa.Call:
		for _, a := range v.Call.Args {
			if types.Identical(a.Type(), v.Type()) && appendsToSlice(v, a) {
				return true
			}
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if holdsAppended(e, put, deferred, depth+1) {
				return true
			}
		}
	case *ssa.Slice:
		if v.High != nil && isZeroConst(v.High) {
			return false
		}
		return holdsAppended(v.X, put, deferred, depth+1)
	case *ssa.UnOp:
		fv, ok := v.X.(*ssa.FreeVar)
		if !ok || !isDeferredClosure(put.Parent()) {
			return false
		}
		cell, ok := soleBinding(fv).(*ssa.Alloc)
		if !ok {
			return false
		}
		for _, r := range *cell.Referrers() {
			st, ok := r.(*ssa.Store)
			if ok && st.Addr == ssa.Value(cell) && holdsAppended(st.Val, st, false, depth+1) && reachesWithoutStore(st, nil, cell, true) {
				return true
			}
		}
	}
	return false
}

// grownBefore reports whether, of the *[]T p put at put, some store of an
// appended slice into *p reaches the Put (a deferred one: a return) with
// no other store into *p on the way.
func grownBefore(fn *ssa.Function, p ssa.Value, put ssa.Instruction, deferred bool) bool {
	if p.Referrers() == nil {
		return false
	}
	for _, r := range *p.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != p || st.Parent() != fn || !holdsAppended(st.Val, put, false, 0) {
			continue
		}
		if deferred {
			if reachesWithoutStore(st, nil, p, true) {
				return true
			}
		} else if reachesWithoutStore(st, put, p, false) {
			return true
		}
	}
	return false
}

// isDeferredClosure reports whether fn is a closure that its enclosing
// function defers.
func isDeferredClosure(fn *ssa.Function) bool {
	for _, mc := range closureSites(fn) {
		for _, r := range refsOf(mc) {
			if d, ok := r.(*ssa.Defer); ok && d.Call.Value == ssa.Value(mc) {
				return true
			}
		}
	}
	return false
}

// reachesWithoutStore reports whether a path from start (exclusive) reaches
// target, or with toReturn any return of start's function, without passing
// another store into addr.
func reachesWithoutStore(start, target ssa.Instruction, addr ssa.Value, toReturn bool) bool {
	type item struct {
		b *ssa.BasicBlock
		i int
	}
	b0 := start.Block()
	i0 := -1
	for i, in := range b0.Instrs {
		if in == start {
			i0 = i
		}
	}
	if i0 < 0 {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []item{{b0, i0 + 1}}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		blocked := false
		for _, in := range it.b.Instrs[it.i:] {
			if in == target {
				return true
			}
			if st, ok := in.(*ssa.Store); ok && st.Addr == addr {
				blocked = true
				break
			}
			if _, ok := in.(*ssa.Return); ok && toReturn {
				return true
			}
		}
		if blocked {
			continue
		}
		for _, s := range it.b.Succs {
			if !seen[s] {
				seen[s] = true
				work = append(work, item{s, 0})
			}
		}
	}
	return false
}
