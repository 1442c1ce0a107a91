package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkNoopReslice reports, in a function of the package, x.f = x.f[:] of
// a slice field of a pooled type: a re-slice that keeps the length, where
// a reset meant x.f[:0]. The object goes back to (or comes out of) the
// pool with every element its last user left (mvdan/sh 788c012 and
// 8f91441: the parser's and the printer's pending heredocs).
func (c *checker) checkNoopReslice(fn *ssa.Function) {
	if !*enabled[checkNoReset] {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			into, isField := st.Addr.(*ssa.FieldAddr)
			sl, isSlice := st.Val.(*ssa.Slice)
			if !isField || !isSlice || sl.Low != nil && !isZeroConst(sl.Low) || sl.High != nil || sl.Max != nil {
				continue
			}
			if _, ok := sl.X.Type().Underlying().(*types.Slice); !ok {
				continue // arr[:] of an array makes a slice: not a no-op
			}
			load, isLoad := sl.X.(*ssa.UnOp)
			if !isLoad || !sameAddr(load.X, into, 0) {
				continue
			}
			n, ok := types.Unalias(derefType(into.X.Type())).(*types.Named)
			if !ok || !c.pooledTypes()[n.Obj()] {
				continue
			}
			name := fieldName(into)
			c.report(checkNoReset, st.Pos(), nil,
				"%s = %s[:] keeps the slice's length and every element in it: the pooled %s keeps its last user's %s; truncate it with [:0]",
				name, name, n.Obj().Name(), name)
		}
	}
}
