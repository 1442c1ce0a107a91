package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkShadowedReset reports a Reset method with an empty body on a struct
// type of a package that uses pools, when the type embeds a type of the
// package whose own Reset writes to its receiver: the empty method shadows
// the embedded one, so whatever resets the object before a Put (a pool
// that calls Reset through an interface, say) clears nothing
// (duanhf2012/origin 0729526: Cron and Ticker embed Timer and declared
// empty Reset methods).
func (c *checker) checkShadowedReset(fn *ssa.Function) {
	if fn.Name() != "Reset" || fn.Signature.Recv() == nil || len(fn.Params) != 1 || fn.Parent() != nil || !emptyBody(fn) {
		return
	}
	recvT := fn.Params[0].Type()
	st, ok := derefType(recvT).Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(derefType(f.Type())), true, c.pass.Pkg, "Reset")
		meth, ok := obj.(*types.Func)
		if !ok || meth.Pkg() != c.pass.Pkg {
			continue
		}
		for _, g := range c.funcs {
			if g.Object() != meth || len(g.Params) == 0 || recvWrites(g, 0, map[*ssa.Function]bool{}) == 0 {
				continue
			}
			c.report(checkNoReset, fn.Pos(), nil,
				"this empty Reset shadows the Reset of the embedded %s, which clears its state: a pooled %s reset through it keeps all of it; call %s.Reset() here",
				f.Name(), types.TypeString(derefType(recvT), types.RelativeTo(c.pass.Pkg)), f.Name())
			return
		}
	}
}

// emptyBody reports whether fn does nothing but return.
func emptyBody(fn *ssa.Function) bool {
	if len(fn.Blocks) != 1 {
		return false
	}
	for _, instr := range fn.Blocks[0].Instrs {
		switch x := instr.(type) {
		case *ssa.DebugRef:
		case *ssa.Return:
			if len(x.Results) != 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}
