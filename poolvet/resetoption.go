package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A Reset of a pooled type that clears its other state, scalar fields
// among it, but not an exported scalar field that the package only reads:
// a per-use option the users set (req.UseHostHeader = true), which the
// next user of the pooled object gets without asking (valyala/fasthttp
// c727b99: Request.Reset kept UseHostHeader, so a request from the pool
// kept a stale Host header). A field a constructor, New or a method of
// the type writes is the package's to manage and is left alone.
// Reported at the Reset, the place to fix.

// reportForgottenOption reports the reset fn of the pooled type n when
// it is such a Reset; touched: the fields it writes or hands to a call.
func (c *checker) reportForgottenOption(fn *ssa.Function, n *types.Named, st *types.Struct, touched fieldSet) bool {
	if !c.putDirectly()[n.Obj()] {
		return false
	}
	touched, ok := withCalleeWrites(fn, touched)
	if !ok {
		return false
	}
	var cand, clearedScalars fieldSet
	count := 0
	for f := 0; f < st.NumFields() && f < 64; f++ {
		fld := st.Field(f)
		switch {
		case touched&(1<<f) != 0:
			count++
			if isScalar(fld.Type()) {
				clearedScalars |= 1 << f
			}
		case fld.Exported() && !fld.Embedded() && isScalar(fld.Type()):
			cand |= 1 << f
		}
	}
	if cand == 0 || count < 2 || clearedScalars == 0 {
		return false
	}
	// Written by a constructor (a composite literal, New) or a method of
	// n (a setter): the package's to manage, not a user's option.
	c.eachFieldStore(func(g *ssa.Function, _ *ssa.Store, fa *ssa.FieldAddr) {
		if fa.Field >= 64 || cand&(1<<fa.Field) == 0 || !sameNamed(fa.X.Type(), n) {
			return
		}
		_, fresh := fa.X.(*ssa.Alloc)
		if fresh || g.Signature.Recv() != nil && len(g.Params) > 0 && fa.X == g.Params[0] {
			cand &^= 1 << fa.Field
		}
	})
	if cand == 0 {
		return false
	}
	// Read by a function of the package (not the reset).
	for f := 0; f < st.NumFields() && f < 64; f++ {
		if cand&(1<<f) == 0 {
			continue
		}
		by := c.fieldReader(n.Obj(), f, fn)
		if by == "" {
			continue
		}
		name := st.Field(f).Name()
		c.report(checkNoReset, fn.Pos(), nil,
			"%s clears %d fields of %s but not %s, an exported option its users set and %s reads: a pooled %s hands the previous user's %s to the next; clear it here",
			fn.Name(), count, n.Obj().Name(), name, by, n.Obj().Name(), name)
		return true
	}
	return false
}

// sameNamed reports whether t is *n.
func sameNamed(t types.Type, n *types.Named) bool {
	tn, ok := namedPtr(t)
	return ok && tn.Obj() == n.Obj()
}
