package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkSeenSetPut reports a Put of an object whose set-like map field (a
// map to struct{} or bool, such as the pointers a run has seen) is added to
// during use, looked up, and never emptied: no clear, no delete, no new map
// stored into it after the object was made. The next user of the pooled
// object starts with the previous user's entries (goccy/go-json 572d484:
// seenPtr made an encode of the same value fail with "encountered a
// cycle"). Reported at the first Put of such an object in each function.
func (c *checker) checkSeenSetPut(fn *ssa.Function, puts []putSite) {
	if !*enabled[checkNoReset] {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.prim != syncPut || p.resets {
			continue
		}
		arg := p.arg
		if mi, ok := arg.(*ssa.MakeInterface); ok {
			arg = mi.X
		}
		n, ok := namedPtr(arg.Type())
		if !ok || n.Obj().Pkg() != c.pass.Pkg {
			continue
		}
		if f, ok := c.staleSetField(n); ok {
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool with its map %s still holding the entries this use added, and nothing in the package ever empties it: the next user starts with them (a visited set that reports cycles or duplicates that are not there); clear(%s) before the Put",
				c.objName(p), f, f)
			return
		}
	}
}

// staleSetField returns the name of a field of the struct n whose type is
// a map to struct{} or bool that the package adds to and looks up in
// (through the field or a local copy of it), and never clears, deletes from
// or replaces except where it makes the object; memoised per type.
func (c *checker) staleSetField(n *types.Named) (string, bool) {
	if c.seenSets == nil {
		c.seenSets = map[*types.TypeName]string{}
	}
	if f, ok := c.seenSets[n.Obj()]; ok {
		return f, f != ""
	}
	c.seenSets[n.Obj()] = ""
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for f := 0; f < st.NumFields(); f++ {
		m, ok := st.Field(f).Type().Underlying().(*types.Map)
		if !ok || !setElem(m.Elem()) {
			continue
		}
		added, looked, emptied := false, false, false
		for _, g := range c.funcs {
			for _, b := range g.Blocks {
				for _, instr := range b.Instrs {
					fa, ok := instr.(*ssa.FieldAddr)
					if !ok || fa.Field != f {
						continue
					}
					if fn2, ok := namedPtr(fa.X.Type()); !ok || fn2.Obj() != n.Obj() {
						continue
					}
					for _, r := range refsOf(fa) {
						switch u := r.(type) {
						case *ssa.Store:
							// A new map stored into an object this function
							// made is its construction; anything else resets.
							if _, made := fa.X.(*ssa.Alloc); !made {
								emptied = true
							}
						case *ssa.UnOp:
							if u.Op != token.MUL {
								emptied = true // its address taken: unknown
								continue
							}
							a, l, e := mapUses(u)
							added, looked, emptied = added || a, looked || l, emptied || e
						default:
							emptied = true // its address passed on: unknown
						}
					}
				}
			}
		}
		if added && looked && !emptied {
			c.seenSets[n.Obj()] = st.Field(f).Name()
			return st.Field(f).Name(), true
		}
	}
	return "", false
}

// mapUses reports how m, a loaded map, is used, directly or through phis
// and the local variables it is copied into: added to, looked up, or
// emptied (clear, delete, or passed to a call that may do either).
func mapUses(m ssa.Value) (added, looked, emptied bool) {
	seen := map[ssa.Value]bool{}
	work := []ssa.Value{m}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] {
			continue
		}
		seen[v] = true
		for _, r := range refsOf(v) {
			switch u := r.(type) {
			case *ssa.MapUpdate:
				if u.Map == v {
					added = true
				}
			case *ssa.Lookup:
				looked = true
			case *ssa.Phi:
				work = append(work, u)
			case *ssa.Store:
				// Copied into a composite literal's field or a variable:
				// followed no further, counted as kept, not emptied.
			case *ssa.Call:
				if isBuiltin(&u.Call, "len") {
					continue
				}
				if isBuiltin(&u.Call, "delete") || isBuiltin(&u.Call, "clear") {
					emptied = true
					continue
				}
				emptied = true // a callee may empty it
			case *ssa.Range:
				looked = true
			case *ssa.DebugRef:
			default:
				emptied = true
			}
		}
	}
	return added, looked, emptied
}

// setElem reports whether t, a map's element type, makes the map a set:
// struct{} or bool.
func setElem(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return u.NumFields() == 0
	case *types.Basic:
		return u.Kind() == types.Bool
	}
	return false
}
