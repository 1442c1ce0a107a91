package poolvet

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// checkDeferredUse reports a deferred call that uses the object (a method
// of it or of one of its fields, or a closure that reads it) registered
// before a Put that runs on the way to a return: the deferred call runs
// after the Put, on an object another user may own by then. gofiber/fiber
// #3051: Save defers s.mu.Unlock() and then releases the session;
// cockroachdb/pebble 423ba082d: Close defers a cleanup closure over the
// writer and puts the writer back before returning.
func (c *checker) checkDeferredUse(fn *ssa.Function, puts []putSite) {
	if !*enabled[checkUseAfterPut] {
		return
	}
	var defers []*ssa.Defer
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && !inLoop(b) {
				defers = append(defers, d)
			}
		}
	}
	if len(defers) == 0 {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.deferred || p.cond || p.field || !trackable(p) {
			continue
		}
		t := c.newTracker(fn, p.key)
		none := &path{clobbered: true}
		// A variable captured by a deferred closure is a cell: the
		// closure's binding is the cell itself.
		alias := func(v ssa.Value) bool {
			return v != nil && (p.key.cell && v == p.key.v || t.class(none, v) != notAlias)
		}
		for _, d := range defers {
			if !precedes(d, p.instr) {
				continue
			}
			pos := c.deferredUse(d, alias)
			if !pos.IsValid() || !c.reachesReturn(fn, p) {
				continue
			}
			c.report(checkUseAfterPut, pos, nil,
				"this deferred call uses %s, which the Put at line %d gives back to the pool before the function returns: it runs on an object another user may own by then; put the object back after it (defer the Put before it, or call it first)",
				c.objName(p), c.line(p.instr.Pos()))
			return
		}
	}
}

// deferredUse returns where the deferred call d uses the object: the defer
// itself for a call on it or one of its fields (defer s.mu.Unlock()), the
// first use in the body of a deferred closure that captured it; NoPos when
// d does not use it, or puts it itself (that is a double Put's business).
func (c *checker) deferredUse(d *ssa.Defer, alias func(ssa.Value) bool) token.Pos {
	com := &d.Call
	if ce, ok := c.calleeOf(com); ok && (ce.prim != nil || ce.sum != nil && (len(ce.sum.putParams) > 0 || len(ce.sum.putFree) > 0)) {
		return token.NoPos
	}
	if mc, ok := com.Value.(*ssa.MakeClosure); ok {
		body, ok := mc.Fn.(*ssa.Function)
		if !ok {
			return token.NoPos
		}
		first := token.NoPos
		for j, bv := range mc.Bindings {
			if !alias(bv) || j >= len(body.FreeVars) {
				continue
			}
			fv := body.FreeVars[j]
			for _, r := range *fv.Referrers() {
				if pos := r.Pos(); pos.IsValid() && (!first.IsValid() || pos < first) {
					first = pos
				}
				if v, ok := r.(ssa.Value); ok && v.Referrers() != nil {
					for _, rr := range *v.Referrers() {
						if pos := rr.Pos(); pos.IsValid() && (!first.IsValid() || pos < first) {
							first = pos
						}
					}
				}
			}
		}
		return first
	}
	if com.IsInvoke() && alias(com.Value) {
		return d.Pos()
	}
	for _, a := range com.Args {
		if alias(a) {
			return d.Pos()
		}
	}
	return token.NoPos
}
