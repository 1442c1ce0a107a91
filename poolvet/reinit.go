package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// minReinit is how many fields a function must set on an object it gets
// from a pool for checkReinitForgets to take it for a field-by-field reset;
// below minReinitAll the forgotten field must also be read somewhere.
const (
	minReinit    = 4
	minReinitAll = 6
)

// checkReinitForgets reports a Get of a pooled struct followed, in the same
// function, by stores into many of its fields one by one (the way a
// constructor re-initialises a recycled object), when a method of the type
// sets another field per use and nothing clears that field: not this
// function, not a function that puts objects of the type, not a reset
// method. The recycled object keeps the previous user's value there
// (corazawaf/coraza#1641's detectionOnlyInterruption, #1642's
// ForceResponseBodyVariable). Reported at the Get. Left out, because the
// next use writes them before reading (go-playground/validator's
// validate): fields that a function the getter calls sets, fields handed on
// truncated (vd.ns[0:0]), []byte buffers and struct values.
func (c *checker) checkReinitForgets(fn *ssa.Function, gets []getSite) {
	if !*enabled[checkNoReset] {
		return
	}
	for _, g := range gets {
		if g.resets || g.prim == nil || g.prim.kind != kindSync {
			continue
		}
		var obj *ssa.TypeAssert
		for _, r := range refsOf(g.call) {
			if ta, ok := r.(*ssa.TypeAssert); ok {
				obj = ta
			}
		}
		if obj == nil {
			continue
		}
		n, ok := types.Unalias(derefType(obj.Type())).(*types.Named)
		st, ok2 := derefStruct(obj.Type())
		if !ok || !ok2 || !isPointer(obj.Type()) || n.Obj().Pkg() != c.pass.Pkg || c.resetsObj(fn, objKey{obj, false}) {
			continue
		}
		set := map[int]bool{}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				// vd.ns[0:0] handed on: the field is a scratch buffer
				// that each use starts empty (go-playground/validator).
				if sl, ok := instr.(*ssa.Slice); ok && sl.High != nil && isConstN(sl.High, 0) {
					if _, _, fa := fieldChain(sl.X); fa != nil && fa.X == obj {
						set[fa.Field] = true
					}
				}
				if s, ok := instr.(*ssa.Store); ok {
					if s.Addr == obj {
						set = nil // *x = T{}
						break
					}
					if fa, ok := s.Addr.(*ssa.FieldAddr); ok && fa.X == obj {
						set[fa.Field] = true
					}
				}
			}
			if set == nil {
				break
			}
		}
		if len(set) < minReinit {
			continue
		}
		f, by, at := c.perUseField(n.Obj(), st, set, fn)
		if f < 0 {
			continue
		}
		// Fewer fields set again than a constructor's worth: the
		// forgotten field must be one the package reads, whose stale
		// value the next user then sees (rs/zerolog 1c32ee0's stack).
		if len(set) < minReinitAll && c.fieldReader(n.Obj(), f, nil) == "" {
			continue
		}
		c.report(checkNoReset, g.call.Pos(), nil,
			"%s gets a %s from the pool and sets %d of its fields again, but not %s, which %s sets (line %d) and nothing clears: the recycled object keeps the previous user's value there; set it here too",
			fn.Name(), n.Obj().Name(), len(set), st.Field(f).Name(), by, c.line(at))
		return
	}
}

// perUseField returns a field of the struct tn, not in set, that a method
// of tn other than fn stores into on its receiver, while no function that
// puts objects of tn into a pool and no reset method of tn stores into,
// and that no function sets to its zero value or truncates to [:0]; with
// the method and the store's position. -1 when there is none.
func (c *checker) perUseField(tn *types.TypeName, st *types.Struct, set map[int]bool, fn *ssa.Function) (int, string, token.Pos) {
	type setter struct {
		by string
		at token.Pos
	}
	setBy := map[int]setter{}
	// Fields that a function fn calls sets (validate's working state,
	// written by the traversal the getter starts) are set anew on each
	// use: not forgotten.
	reach := map[*ssa.Function]bool{}
	var walk func(g *ssa.Function, depth int)
	walk = func(g *ssa.Function, depth int) {
		if reach[g] || depth > 3 {
			return
		}
		reach[g] = true
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				if ci, ok := instr.(ssa.CallInstruction); ok {
					if h := ci.Common().StaticCallee(); h != nil && h.Pkg != nil && h.Pkg.Pkg == c.pass.Pkg {
						walk(h, depth+1)
					}
				}
			}
		}
	}
	walk(fn, 0)
	usedNow := map[int]bool{}
	cleared := map[int]bool{}
	putters := map[*ssa.Function]bool{}
	for _, g := range c.funcs {
		puts, _ := c.sites(g)
		for i := range puts {
			a := puts[i].arg
			if mi, ok := a.(*ssa.MakeInterface); ok {
				a = mi.X
			}
			if nn, ok := types.Unalias(derefType(a.Type())).(*types.Named); ok && nn.Obj() == tn {
				putters[g] = true
			}
		}
	}
	c.eachFieldStore(func(g *ssa.Function, s *ssa.Store, fa *ssa.FieldAddr) {
		nn, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
		if !ok || nn.Obj() != tn || g == fn {
			return
		}
		if _, zero, ok := resliceAny(s); putters[g] || resetsByName(g) || isZeroConst(s.Val) || ok && zero {
			cleared[fa.Field] = true
			return
		}
		if reach[g] {
			usedNow[fa.Field] = true
		}
		prm, ok := fa.X.(*ssa.Parameter)
		if !ok || !isReceiver(prm) {
			return
		}
		if _, seen := setBy[fa.Field]; !seen {
			setBy[fa.Field] = setter{displayName(g), s.Pos()}
		}
	})
	// A field a function that puts objects of the type tests against nil
	// (it puts only unlinked blocks: if b.prevBl == nil { pool.Put(b) },
	// m3db's DatabaseBlock.Close) is known clear where it puts.
	for g := range putters {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				bin, ok := instr.(*ssa.BinOp)
				if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
					continue
				}
				for _, side := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
					if !isNil(side[1]) {
						continue
					}
					if fa, ok := loadedField(side[0]); ok {
						if nn, ok := namedPtr(fa.X.Type()); ok && nn.Obj() == tn {
							cleared[fa.Field] = true
						}
					}
				}
			}
		}
	}
	// A reset or a function that puts objects of the type overwriting the
	// whole object (*q = Query{refCount: 1}, gocql's reset before its Put)
	// clears every field.
	for _, g := range c.funcs {
		if g == fn || !putters[g] && !resetsByName(g) || len(g.Params) == 0 {
			continue
		}
		if n, ok := namedPtr(g.Params[0].Type()); ok && n.Obj() == tn && storesWhole(g, g.Params[0]) {
			return -1, "", 0
		}
	}
	for f := 0; f < st.NumFields(); f++ {
		s, ok := setBy[f]
		if !ok || set[f] || cleared[f] || usedNow[f] || isByteSlice(st.Field(f).Type()) || isStruct(st.Field(f).Type()) {
			// A []byte field is a buffer the object keeps; a struct
			// value (a reflect.Value, a time.Time) is state the setter
			// writes whole before each use, not a flag or a reference
			// the next user reads as it is.
			continue
		}
		return f, s.by, s.at
	}
	return -1, "", 0
}

// fieldReader returns the name of the first function of the package,
// other than skip, that loads the field f of a *tn, or "".
func (c *checker) fieldReader(tn *types.TypeName, f int, skip *ssa.Function) string {
	for _, g := range c.funcs {
		if g == skip {
			continue
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				ld, ok := instr.(*ssa.UnOp)
				if !ok || ld.Op != token.MUL {
					continue
				}
				if fa, ok := ld.X.(*ssa.FieldAddr); ok && fa.Field == f {
					if n, ok := namedPtr(fa.X.Type()); ok && n.Obj() == tn {
						return displayName(g)
					}
				}
			}
		}
	}
	return ""
}
