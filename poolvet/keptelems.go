package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A method that puts back, in a loop, the elements of a slice field of
// its receiver and leaves them in the field, while another method of the
// type reads the field's elements and tests nothing the first one sets:
// a call of the reader after the release reads (or frees again) memory the
// pool may have handed to another user (lesismal/nbio#502: BodyReader.Close
// freed its buffers and kept br.buffers; a Read still running in a handler
// copied from them). Reported at the Put.

// checkKeptFieldElems reports the Puts of fn that are such a release.
func (c *checker) checkKeptFieldElems(fn *ssa.Function, puts []putSite) {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Parent() != nil || isResetName(fn.Name()) {
		return
	}
	recv := fn.Params[0]
	n, ok := namedPtr(recv.Type())
	if !ok {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.deferred || p.field || p.key.cell {
			continue
		}
		ia, _ := loopElemPut(p)
		if ia == nil {
			continue
		}
		fa, ok := loadedField(ia.X)
		if !ok || fa.X != recv || fa.Field >= 64 {
			continue
		}
		if storesField(fn, recv, fa.Field) || storesWhole(fn, recv) || nilsSlot(ia) {
			continue // the field, or the slot, is cleared or replaced
		}
		sets := recvWrites(fn, 0, map[*ssa.Function]bool{})
		reader := c.elemReader(fn, n, fa.Field, sets)
		if reader == "" {
			continue
		}
		st, _ := derefStruct(recv.Type())
		field := st.Field(fa.Field).Name()
		c.report(checkUseAfterPut, p.instr.Pos(), nil,
			"%s puts the elements of %s.%s back into the pool but leaves them in the field, and %s reads them without testing anything %s sets: a %s after %s uses memory the pool may have handed to another user; clear %s after the loop",
			fn.Name(), recv.Name(), field, reader, fn.Name(), reader, fn.Name(), field)
		return
	}
}

// loadsFrom reports whether an element is loaded through ia (not only
// stored into: r.f[i] = x writes the slot).
func loadsFrom(ia *ssa.IndexAddr) bool {
	for _, ref := range refsOf(ia) {
		if ld, ok := ref.(*ssa.UnOp); ok && ld.Op == token.MUL {
			return true
		}
	}
	return false
}

// nilsSlot reports whether the slot ia addresses, or one of the same
// slice and index, is set to nil in ia's function (r.f[i] = nil after
// the Put).
func nilsSlot(ia *ssa.IndexAddr) bool {
	for _, b := range ia.Parent().Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !isNil(st.Val) {
				continue
			}
			if other, ok := st.Addr.(*ssa.IndexAddr); ok && other.Index == ia.Index && sameLoc(other.X, ia.X) {
				return true
			}
		}
	}
	return false
}

// storesWhole reports whether fn stores over all of *obj (*r = T{}).
func storesWhole(fn *ssa.Function, obj ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == obj {
				return true
			}
		}
	}
	return false
}

// elemReader returns the name of a method of n, other than release and
// resets, that loads an element of its receiver's field f and reads none
// of the fields in sets (what release writes, a closed flag among them).
func (c *checker) elemReader(release *ssa.Function, n *types.Named, f int, sets fieldSet) string {
	for _, g := range c.funcs {
		if g == release || g.Signature.Recv() == nil || len(g.Params) == 0 || g.Parent() != nil || isResetName(g.Name()) {
			continue
		}
		recv := g.Params[0]
		if gn, ok := namedPtr(recv.Type()); !ok || gn.Obj() != n.Obj() {
			continue
		}
		reads := false
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				ia, ok := instr.(*ssa.IndexAddr)
				if !ok {
					continue
				}
				if fa, ok := loadedField(ia.X); ok && fa.X == recv && fa.Field == f && loadsFrom(ia) {
					reads = true
				}
			}
		}
		if !reads || c.putsElemsOf(g, recv, f) {
			continue // another release (its loads are what it puts)
		}
		if (c.paramFieldUse(g, 0, 0).reads|flagReads(g, sets))&sets != 0 {
			continue // tests what the release sets (if br.closed { ... })
		}
		return g.Name()
	}
	return ""
}

// putsElemsOf reports whether fn puts an element of the field f of recv.
func (c *checker) putsElemsOf(fn *ssa.Function, recv *ssa.Parameter, f int) bool {
	puts, _ := c.sites(fn)
	for _, p := range puts {
		if ld, ok := p.key.v.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if ia, ok := ld.X.(*ssa.IndexAddr); ok {
				if fa, ok := loadedField(ia.X); ok && fa.X == recv && fa.Field == f {
					return true
				}
			}
		}
	}
	return false
}
