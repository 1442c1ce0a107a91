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
	if p.prim != syncPut || p.key.cell || p.cond || p.field {
		return
	}
	arg := p.arg
	if mi, ok := arg.(*ssa.MakeInterface); ok {
		arg = mi.X
	}
	t := arg.Type()
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	st, ok2 := derefStruct(t)
	if !ok || !ok2 || !isPointer(t) || n.Obj().Pkg() != c.pass.Pkg || st.NumFields() > 64 {
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
				if (bi.Name() == "cap" || bi.Name() == "len") && len(com.Args) == 1 && compared(ci) {
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
