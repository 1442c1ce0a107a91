package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkResetFailedPut reports a Put reached only where the Reset meant to
// clean the object for the pool failed: obj.Reset(nil) (or Reset()) that
// returned an error, and the Put in that error's branch. A reset that
// fails leaves the object as it was, still bound to its previous input
// (mostynb/zstdpool-syncpool 4c85d3e: `if err := w.Decoder.Reset(nil);
// err != nil { w.pool.Put(w) }`, the condition inverted). A Reset given a
// new input (zr.Reset(r) at Get) that fails is not this: its Put after the
// failure only returns an unused object.
func (c *checker) checkResetFailedPut(fn *ssa.Function, p *putSite) {
	if p.prim == nil || p.deferred || p.field || p.key.cell {
		return
	}
	al := c.aliasesOf(fn, p.key, true)
	dominatingBranches(p.instr.Block(), func(cond ssa.Value, taken bool) bool {
		cmp, ok := cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.NEQ && cmp.Op != token.EQL {
			return true
		}
		res := cmp.X
		if isNil(res) {
			res = cmp.Y
		} else if !isNil(cmp.Y) {
			return true
		}
		// The Put is on the failed side: err != nil taken, or err == nil not.
		call := cleanupReset(res)
		if call == nil || !partOf(callArgs(&call.Call)[0], al) || taken != (cmp.Op == token.NEQ) {
			return true
		}
		c.report(checkNoReset, p.instr.Pos(), nil,
			"%s goes back to the pool only when %s (line %d) failed, which leaves the object as it was, still holding its previous use: put it back only when the reset succeeded",
			c.objName(p), displayName(call.Call.StaticCallee()), c.line(call.Pos()))
		return false
	})
}

// cleanupReset returns the call that v, an error, is the result of when
// that call is a reset method given no new input (Reset(), Reset(nil)):
// a reset meant to let go of the previous use.
func cleanupReset(v ssa.Value) *ssa.Call {
	if ex, ok := v.(*ssa.Extract); ok {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || !isResetName(callee.Name()) || callee.Signature.Recv() == nil {
		return nil
	}
	res := callee.Signature.Results()
	if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return nil
	}
	for _, a := range call.Call.Args[1:] {
		if !isNil(a) {
			return nil
		}
	}
	return call
}
