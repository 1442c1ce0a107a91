package poolvet

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// checkFieldsUnlikeOthers reports a Put of a pooled struct whose function
// bounds two or more of its slice fields (if cap(ts.Labels) > max {
// ts.Labels = nil }) but not another that code of the package appends to:
// the forgotten field keeps the largest capacity any user grew it to
// (grafana/mimir#7935: Exemplars only truncated by ClearExemplars).
func (c *checker) checkFieldsUnlikeOthers(fn *ssa.Function, p putSite) {
	if p.cond || p.field {
		return
	}
	t, n, st, ok := c.pooledStruct(&p)
	if !ok {
		return
	}
	al := c.aliasesOf(fn, p.key, true)
	guarded := c.guardedFields(fn, al, derefType(t), 2)
	var names []string
	for f := range guarded {
		if f < st.NumFields() {
			names = append(names, st.Field(f).Name())
		}
	}
	if len(names) < 2 {
		return
	}
	sort.Strings(names)
	grown := c.grownFields(n.Origin().Obj())
	for f := 0; f < st.NumFields(); f++ {
		if guarded[f] || grown[f] == "" {
			continue
		}
		if _, ok := st.Field(f).Type().Underlying().(*types.Slice); !ok {
			continue
		}
		if c.dropsField(fn, &p, t, st.Field(f).Name()) {
			continue
		}
		c.report(checkUnbounded, p.instr.Pos(), nil,
			"%s (%s) is put into the pool with its fields %s size-checked but not %s, which %s appends to: one huge %s stays pinned in the pool (golang/go#23199); bound it like the others",
			c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), strings.Join(names, ", "), st.Field(f).Name(), grown[f], st.Field(f).Name())
		return
	}
}

// pooledStruct returns the type of what the sync.Pool Put p puts when it
// is a pointer to a struct of the package with at most 64 fields: the
// pointer type, its named type and its struct.
func (c *checker) pooledStruct(p *putSite) (types.Type, *types.Named, *types.Struct, bool) {
	if p.prim != syncPut || p.key.cell {
		return nil, nil, nil, false
	}
	arg := p.arg
	if mi, ok := arg.(*ssa.MakeInterface); ok {
		arg = mi.X
	}
	t := arg.Type()
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	st, ok2 := derefStruct(t)
	if !ok || !ok2 || !isPointer(t) || n.Obj().Pkg() != c.pass.Pkg || st.NumFields() > 64 {
		return nil, nil, nil, false
	}
	return t, n, st, true
}

// guardedFields returns the fields of the object of type obj (al: its
// aliases in fn) whose capacity or length fn, or a function of the package
// that fn gives the object to (down to depth), compares with a bound.
// Fields of other structs the aliases reach (a sub-object's) are not the
// object's.
func (c *checker) guardedFields(fn *ssa.Function, al map[ssa.Value]bool, obj types.Type, depth int) map[int]bool {
	out := map[int]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			if bi, ok := com.Value.(*ssa.Builtin); ok {
				if (bi.Name() == "cap" || bi.Name() == "len") && len(com.Args) == 1 && boundCompared(ci) {
					if ld, ok := com.Args[0].(*ssa.UnOp); ok && ld.Op == token.MUL {
						if fa, ok := ld.X.(*ssa.FieldAddr); ok && al[fa.X] && fa.Field < 64 && types.Identical(derefType(fa.X.Type()), obj) {
							out[fa.Field] = true
						}
					}
				}
				continue
			}
			g := com.StaticCallee()
			if depth == 0 || g == nil || g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg || g == fn {
				continue
			}
			for i, a := range com.Args {
				if al[a] && i < len(g.Params) && types.Identical(derefType(g.Params[i].Type()), obj) {
					for f := range c.guardedFields(g, c.aliasesOf(g, objKey{g.Params[i], false}, true), obj, depth-1) {
						out[f] = true
					}
				}
			}
		}
	}
	return out
}

// grownFields returns, for the struct type tn, the fields that a function
// of the package appends to (x.f = append(x.f, ...)), each with the name of
// one such function; built on first use.
func (c *checker) grownFields(tn *types.TypeName) map[int]string {
	if c.grown == nil {
		c.grown = map[*types.TypeName]map[int]string{}
		c.eachFieldStore(func(fn *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
			ref, ok := fieldRefOf(fa)
			if !ok || !appendsTo(st.Val, fa) {
				return
			}
			if c.grown[ref.obj] == nil {
				c.grown[ref.obj] = map[int]string{}
			}
			if _, seen := c.grown[ref.obj][ref.field]; !seen {
				c.grown[ref.obj][ref.field] = displayName(fn)
			}
		})
	}
	return c.grown[tn]
}

// A fieldBound is a Put of a pooled struct of the package that bounds a
// field of it (a capacity check before the Put, in its function or a
// callee given the object).
type fieldBound struct {
	field int
	pos   token.Pos // the Put
}

// checkFieldBoundElsewhere reports a Put of a pooled struct of the package
// that leaves unchecked a slice field which another Put of the same type in
// the package bounds (if cap(dec.deltaScratch) > max { dec.deltaScratch =
// nil }): the package knows the field grows, and this Put forgot
// (alex60217101990/qdf#52's generic UnmarshalT).
func (c *checker) checkFieldBoundElsewhere(fn *ssa.Function, p putSite) {
	if p.cond || p.field {
		return
	}
	t, n, st, ok := c.pooledStruct(&p)
	if !ok {
		return
	}
	bounds := c.fieldBoundsOf(n.Origin().Obj())
	if len(bounds) == 0 {
		return
	}
	mine := c.guardedFields(fn, c.aliasesOf(fn, p.key, true), derefType(t), 2)
	for _, b := range bounds {
		if b.pos == p.instr.Pos() || mine[b.field] || b.field >= st.NumFields() {
			continue
		}
		f := st.Field(b.field)
		if _, ok := f.Type().Underlying().(*types.Slice); !ok || c.dropsField(fn, &p, t, f.Name()) {
			continue
		}
		if !c.growsField(fn, c.aliasesOf(fn, p.key, true), derefType(t), b.field, 3) {
			continue // a fixed-size use of the object
		}
		c.report(checkUnbounded, p.instr.Pos(), nil,
			"%s (%s) is put into the pool with its field %s unchecked, while the Put at line %d drops or bounds it: one huge %s stays pinned in the pool (golang/go#23199); bound it here too",
			c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), f.Name(), c.line(b.pos), f.Name())
		return
	}
}

// fieldBoundsOf returns the fields of the struct type tn that a Put of a
// pointer to it in the package bounds, each with that Put; built for the
// package on first use.
func (c *checker) fieldBoundsOf(tn *types.TypeName) []fieldBound {
	if c.fieldBounds == nil {
		c.fieldBounds = map[*types.TypeName][]fieldBound{}
		for _, fn := range c.funcs {
			puts, _ := c.sites(fn)
			for i := range puts {
				q := &puts[i]
				t, qn, _, ok := c.pooledStruct(q)
				if !ok {
					continue
				}
				for f := range c.guardedFields(fn, c.aliasesOf(fn, q.key, true), derefType(t), 2) {
					c.fieldBounds[qn.Origin().Obj()] = append(c.fieldBounds[qn.Origin().Obj()], fieldBound{f, q.instr.Pos()})
				}
			}
		}
	}
	return c.fieldBounds[tn]
}

// growsField reports whether fn, or a function of the package it gives the
// object to (down to depth), stores into field f of the object (of type
// obj; al: its aliases in fn) a slice of a size the code does not fix: an
// append of a variable amount, or a make of a variable length.
func (c *checker) growsField(fn *ssa.Function, al map[ssa.Value]bool, obj types.Type, f, depth int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok || !al[fa.X] || fa.Field != f || !types.Identical(derefType(fa.X.Type()), obj) {
					continue
				}
				switch v := x.Val.(type) {
				case *ssa.Call:
					if isBuiltin(&v.Call, "append") && !fixedAppend(v) || appendLike(v) {
						return true
					}
				case *ssa.MakeSlice:
					if _, ok := v.Len.(*ssa.Const); !ok {
						return true
					}
				}
			case ssa.CallInstruction:
				com := x.Common()
				g := com.StaticCallee()
				if depth == 0 || g == nil || g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg || g == fn {
					continue
				}
				for i, a := range com.Args {
					if al[a] && i < len(g.Params) && types.Identical(derefType(g.Params[i].Type()), obj) &&
						c.growsField(g, c.aliasesOf(g, objKey{g.Params[i], false}, true), obj, f, depth-1) {
						return true
					}
				}
			}
		}
	}
	return false
}

// boundCompared reports whether the size that ci computes is compared
// (<, >, <=, >=) with a bound: a constant above 1, or a value loaded from
// a package-level variable or a field, not a size the caller asks for
// (if cap(d.scratch) < n { grow } is a fit test).
func boundCompared(ci ssa.CallInstruction) bool {
	for _, other := range comparedWithOps(ci, token.LSS, token.GTR, token.LEQ, token.GEQ) {
		if cv, ok := other.(*ssa.Convert); ok {
			other = cv.X
		}
		if n, ok := constInt(other); ok && n > 1 {
			return true
		}
		if ld, ok := other.(*ssa.UnOp); ok && ld.Op == token.MUL {
			switch a := ld.X.(type) {
			case *ssa.Global:
				return true
			case *ssa.FieldAddr:
				if !fromCaller(a.X) {
					return true
				}
			}
		}
	}
	return false
}
