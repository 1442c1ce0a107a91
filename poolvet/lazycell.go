package poolvet

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// checkLazyCell reports, in a closure that takes an object from a pool
// into a variable of its enclosing function only when that variable is
// nil (if pkt == nil { pkt = newPacket(); defer pkt.DecRef() }), a Put of
// what the variable holds that leaves the variable holding it. The
// closure is a callback run more than once: the next run finds the
// variable set and uses an object that went back to the pool (gvisor
// bb1ae81's packet endpoints).
func (c *checker) checkLazyCell(fn *ssa.Function, puts []putSite) {
	if fn.Parent() == nil || !*enabled[checkUseAfterPut] || !runsAgain(fn) {
		return
	}
	for i := range puts {
		p := &puts[i]
		// A conditional Put counts (a reference count, a flag kept for
		// special objects): the usual run puts it.
		if p.field {
			continue
		}
		ld, ok := stripConv(p.arg).(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		fv, ok := ld.X.(*ssa.FreeVar)
		if !ok {
			continue
		}
		var fill *ssa.Store
		other := false
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || st.Addr != ssa.Value(fv) {
					continue
				}
				if fill == nil && c.gotFromGet(st.Val) && cellNilBranch(st.Block(), fv) {
					fill = st
				} else {
					other = true // cleared or replaced: the next run sees no stale object
				}
			}
		}
		if fill == nil || other {
			continue
		}
		c.report(checkUseAfterPut, p.instr.Pos(), nil,
			"%s goes back to the pool here, but the captured variable keeps it, and this closure takes a new object only when the variable is nil: its next run uses the old one after the Put; set %s = nil after the Put, or put it once after the last run",
			c.objName(p), fv.Name())
	}
}

// runsAgain reports whether the closure fn is handed to a call of its
// enclosing function as an argument (a callback, typically run for each
// element) or called in a loop there.
func runsAgain(fn *ssa.Function) bool {
	for _, mc := range closureSites(fn) {
		for _, r := range refsOf(mc) {
			call, ok := r.(*ssa.Call)
			if !ok {
				continue
			}
			if call.Call.Value == ssa.Value(mc) {
				if inLoop(call.Block()) {
					return true
				}
				continue
			}
			return true // an argument: a callback
		}
	}
	return false
}

// cellNilBranch reports whether block b is entered only from the branch of
// an if that found the captured variable fv nil (if v == nil { b }).
func cellNilBranch(b *ssa.BasicBlock, fv *ssa.FreeVar) bool {
	return nilBranchOf(b, func(v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		return ok && ld.Op == token.MUL && ld.X == ssa.Value(fv)
	})
}
