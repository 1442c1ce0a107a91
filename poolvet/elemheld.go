package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkElemHeldElsewhere reports a function that puts every element of a
// slice field in a loop and also puts what another field path of the same
// holder holds, when some function of the package stores an element of
// that slice field into that path (p.state = successState(p.records[i])):
// the path holds one of the elements, which is then put twice
// (grafana/loki#18915: BufferedPipeline.Close released every record and
// then the current one). Reported at the Put that runs second.
func (c *checker) checkElemHeldElsewhere(fn *ssa.Function, puts []putSite) {
	for i := range puts {
		p := &puts[i]
		if p.field || p.key.cell || p.cond && !p.release || !inLoop(p.instr.Block()) {
			continue
		}
		tn, faQ := elemField(p.key.v)
		if tn == nil {
			continue
		}
		q := fieldVar(faQ)
		if q == nil {
			continue
		}
		for j := range puts {
			o := &puts[j]
			if o == p || o.field || o.key.cell || o.cond && !o.release {
				continue
			}
			base, path := fieldVarChain(o.key.v)
			if len(path) == 0 || !(sameLoc(base, faQ.X) || sameAddr(base, faQ.X, 0) || base == faQ.X) {
				continue
			}
			st := c.storesElemAt(q, path)
			if st == nil {
				continue
			}
			second, first := o, p
			if mayPrecede(o.instr, p.instr) && !mayPrecede(p.instr, o.instr) {
				second, first = p, o
			}
			c.report(checkDoublePut, second.instr.Pos(), nil,
				"%s may be put into the pool twice: %s (line %d) stores an element of %s into the field this Put reads, and line %d puts every element of %s too; put each object once",
				c.objName(second), displayName(st.Parent()), c.line(st.Pos()), q.Name(), c.line(first.instr.Pos()), q.Name())
			return
		}
	}
}

// fieldVarChain returns, for a load reached through loads of fields from a
// base (*(&(*(&p.state)).batch)), the base and the fields, outermost first
// (see fieldAddrVars); for another value, v and no fields.
func fieldVarChain(v ssa.Value) (ssa.Value, []*types.Var) {
	v = stripConv(v)
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		if fa, ok := ld.X.(*ssa.FieldAddr); ok {
			return fieldAddrVars(fa)
		}
	}
	return v, nil
}

// storesElemAt returns a store, anywhere in the package, of an element of
// the slice field q into the field path (or into a field of it that has the
// element's type, through a call given the element: state{batch: r}).
func (c *checker) storesElemAt(q *types.Var, path []*types.Var) *ssa.Store {
	isElem := func(v ssa.Value) bool {
		_, f := elemField(v)
		return f != nil && fieldVar(f) == q
	}
	var found *ssa.Store
	c.eachFieldStore(func(_ *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		_, at := fieldAddrVars(fa)
		if found != nil || len(at) == 0 || len(at) > len(path) || !samePrefix(at, path) {
			return
		}
		switch rest := path[len(at):]; {
		case len(rest) == 0 && isElem(st.Val):
			found = st
		case len(rest) == 1:
			call, ok := st.Val.(*ssa.Call)
			if !ok || !types.Identical(rest[0].Type(), q.Type().Underlying().(*types.Slice).Elem()) {
				return
			}
			for _, a := range call.Call.Args {
				if isElem(a) {
					found = st
				}
			}
		}
	})
	return found
}

// fieldAddrVars is fieldVarChain for a field address.
func fieldAddrVars(fa *ssa.FieldAddr) (ssa.Value, []*types.Var) {
	var rev []*types.Var
	for {
		f := fieldVar(fa)
		if f == nil {
			return nil, nil
		}
		rev = append(rev, f)
		if inner, ok := fa.X.(*ssa.FieldAddr); ok {
			fa = inner
			continue
		}
		if ld, ok := fa.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if inner, ok := ld.X.(*ssa.FieldAddr); ok {
				fa = inner
				continue
			}
		}
		break
	}
	path := make([]*types.Var, len(rev))
	for i, f := range rev {
		path[len(rev)-1-i] = f
	}
	return fa.X, path
}

// samePrefix reports whether a is a prefix of b.
func samePrefix(a, b []*types.Var) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
