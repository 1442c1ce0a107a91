package poolvet

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// checkInitForgets reports a function that re-initialises an object of a
// pooled type field by field, setting minReinit or more scalar fields to
// their zero values, but leaves out a scalar field that other code of the
// package sets to a non-zero value and reads: the next user of the pooled
// object starts with the previous user's value there (goccy/go-json
// 5f6420d: initOption cleared HTMLEscape, Indent, UnorderedMap and Debug of
// the pooled context's Option, not Colorize). Its name says what it is for
// (init..., reset..., clear...); reported at its declaration, the place to
// fix.
func (c *checker) checkInitForgets(fn *ssa.Function) {
	if fn.Parent() != nil || len(fn.Params) == 0 || !isInitName(fn.Name()) {
		return
	}
	if fn.Signature.Recv() != nil && isResetName(fn.Name()) {
		return // checkResetForgets judges reset methods
	}
	obj := fn.Params[0]
	n, st, ok := c.pooledStructPtr(obj)
	if !ok {
		return
	}
	var zeroed, touched fieldSet
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != obj || fa.Field >= 64 {
					continue
				}
				touched |= 1 << fa.Field
				if isZeroConst(x.Val) && isScalar(st.Field(fa.Field).Type()) {
					zeroed |= 1 << fa.Field
				}
			case ssa.CallInstruction:
				// The object handed on: a callee may set the rest.
				for _, a := range x.Common().Args {
					if a == obj {
						return
					}
					if fa, ok := a.(*ssa.FieldAddr); ok && fa.X == obj && fa.Field < 64 {
						touched |= 1 << fa.Field
					}
				}
			}
		}
	}
	count := 0
	for f := 0; f < st.NumFields(); f++ {
		if zeroed&(1<<f) != 0 {
			count++
		}
	}
	if count < minReinit {
		return
	}
	var cand fieldSet
	for f := 0; f < st.NumFields(); f++ {
		if touched&(1<<f) == 0 && isScalar(st.Field(f).Type()) && !st.Field(f).Embedded() {
			cand |= 1 << f
		}
	}
	if cand == 0 {
		return
	}
	// Set to something else elsewhere, and read.
	var setElsewhere fieldSet
	c.eachFieldStore(func(g *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		if g == fn || fa.Field >= 64 || cand&(1<<fa.Field) == 0 || isZeroConst(st.Val) {
			return
		}
		if fn2, ok := namedPtr(fa.X.Type()); ok && fn2.Obj() == n.Obj() {
			setElsewhere |= 1 << fa.Field
		}
	})
	var read fieldSet
	for f := 0; f < st.NumFields() && f < 64; f++ {
		if (cand&setElsewhere)&(1<<f) != 0 && c.fieldReader(n.Obj(), f, nil) != "" {
			read |= 1 << f
		}
	}
	stale := cand & setElsewhere & read
	for f := 0; f < st.NumFields() && f < 64; f++ {
		if stale&(1<<f) == 0 {
			continue
		}
		c.report(checkNoReset, fn.Pos(), nil,
			"%s re-initialises %d fields of %s, an object of a pooled type, but not %s, which other code sets and reads: a reused object keeps the previous user's %s; set it here too",
			fn.Name(), count, obj.Name(), st.Field(f).Name(), st.Field(f).Name())
		return
	}
}

// isInitName reports whether a function named name says it re-initialises
// what it is given: init..., reset..., clear... (not init itself).
func isInitName(name string) bool {
	l := strings.ToLower(name)
	for _, p := range []string{"init", "reset", "clear"} {
		if strings.HasPrefix(l, p) && len(l) > len(p) {
			return true
		}
	}
	return false
}
