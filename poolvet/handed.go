package poolvet

import "golang.org/x/tools/go/ssa"

// A heldAt is a field path of a parameter, by index (receiver first), that
// a function stores a value into; path "f[]" is an element appended to the
// slice field f.
type heldAt struct {
	param int
	path  string
}

// A held is a value that fn stores into a field path of another value.
type held struct {
	val   ssa.Value
	at    fieldLoc
	instr ssa.Instruction // the store, or the call that stores it
}

// holdsIn returns the values fn stores into field paths of other values:
// directly (s.enc = e), appended to a slice field (c.closers =
// append(c.closers, r)), or through a call, per its callee's storesAt
// (ctx.Register(r); r := b.Stream(ctx)).
func (c *checker) holdsIn(fn *ssa.Function) []held {
	var out []held
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				base, path := fieldAddrChain(fa)
				if appendsTo(x.Val, fa) {
					for _, e := range appendedElems(x.Val.(*ssa.Call)) {
						out = append(out, held{e, fieldLoc{base, path + "[]"}, x})
					}
					continue
				}
				out = append(out, held{x.Val, fieldLoc{base, path}, x})
			case *ssa.Call:
				ce, ok := c.calleeOf(&x.Call)
				if !ok || ce.sum == nil {
					continue
				}
				args := callArgs(&x.Call)
				for src, ats := range ce.sum.storesAt {
					var v ssa.Value = x // src -1: result 0
					if src >= 0 {
						if src >= len(args) {
							continue
						}
						v = args[src]
					}
					for at := range ats {
						if at.param >= len(args) {
							continue
						}
						base, prefix := args[at.param], ""
						if b, p, _ := fieldChain(base); b != nil {
							base, prefix = b, p+"."
						}
						out = append(out, held{v, fieldLoc{base, prefix + at.path}, x})
					}
				}
			}
		}
	}
	return out
}

// recordStoresAt notes in s, by parameter (-1: result 0), the field paths
// of other parameters that fn stores it into (see holdsIn): after the call
// the caller's value holds it there. In-package only.
func (c *checker) recordStoresAt(s *summary, fn *ssa.Function) {
	holds := c.holdsIn(fn)
	add := func(src int, at heldAt) {
		if s.storesAt == nil {
			s.storesAt = map[int]map[heldAt]bool{}
		}
		if s.storesAt[src] == nil {
			s.storesAt[src] = map[heldAt]bool{}
		}
		s.storesAt[src][at] = true
	}
	for _, h := range holds {
		j := paramIndex(fn, h.at.base)
		if j < 0 {
			continue
		}
		if i := paramIndex(fn, h.val); i >= 0 && i != j {
			add(i, heldAt{j, h.at.path})
		}
	}
	// The result: a value fn stores and returns (r := get(); ctx.Register(r);
	// return r).
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		for _, h := range holds {
			if j := paramIndex(fn, h.at.base); j >= 0 && h.val == ret.Results[0] {
				add(-1, heldAt{j, h.at.path})
			}
		}
	}
}

// paramIndex returns the index of v among fn's parameters, or -1.
func paramIndex(fn *ssa.Function, v ssa.Value) int {
	for i, q := range fn.Params {
		if q == v {
			return i
		}
	}
	return -1
}

// sameStoresAt reports whether two summaries' storesAt are equal.
func sameStoresAt(a, b map[int]map[heldAt]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i, m := range a {
		if !sameSet(m, b[i]) {
			return false
		}
	}
	return true
}

// checkHandedPut reports an object that fn puts and also stores into a
// field path of another value whose release (a call that puts what that
// path holds, per its callee's fieldPuts) runs on the same path: two owners
// put one object (m3db/m3#601: the encoder's deferred Finalize and the
// write state's decRef; m3db/m3#218: a reader's deferred Close and the
// context it was registered with). Reported at the Put that runs second:
// of an explicit and a deferred one, the explicit one.
func (c *checker) checkHandedPut(fn *ssa.Function, puts []putSite) {
	var holds []held
	var releases []fieldCall
	for i := range puts {
		p := &puts[i]
		if p.cond && !p.reuse || p.field || !trackable(p) {
			continue
		}
		if holds == nil {
			holds = c.holdsIn(fn)
			_, releases = c.fieldPutCalls(fn, true, nil)
		}
		if len(holds) == 0 || len(releases) == 0 {
			return
		}
		al := c.aliasesOf(fn, p.key, true)
		for _, h := range holds {
			if !al[h.val] || h.instr == p.instr {
				continue
			}
			for _, r := range releases {
				if r.at != h.at || r.instr == p.instr || !reachesKeeping(h.instr, r.instr, h.at.base) && !isDefer(r.instr) ||
					storesBetween(fn, h, r.instr) {
					continue
				}
				if isDefer(r.instr) && !mayPrecede(r.instr, h.instr) && !mayPrecede(h.instr, r.instr) {
					continue
				}
				// ordered: b can run after a on the same object; a defer
				// registered before the object exists (defer ctx.Close();
				// r := b.Stream(ctx)) runs at a return after b.
				ordered := func(a, b ssa.Instruction) bool {
					return reachesKeeping(a, b, p.key.v) || isDefer(a) && mayPrecede(a, b)
				}
				var second, first ssa.Instruction
				switch pd, rd := isDefer(p.instr), isDefer(r.instr); {
				case pd && !rd:
					second, first = r.instr, p.instr
				case rd && !pd:
					second, first = p.instr, r.instr
				case pd && rd && precedes(r.instr, p.instr), !pd && !rd && ordered(p.instr, r.instr):
					second, first = r.instr, p.instr
				case pd && rd && precedes(p.instr, r.instr), !pd && !rd && ordered(r.instr, p.instr):
					second, first = p.instr, r.instr
				default:
					continue
				}
				if !ordered(p.instr, r.instr) && !ordered(r.instr, p.instr) {
					continue
				}
				arg := callArgs(r.instr.Common())[r.arg]
				where := fieldPathName(c.objName(&putSite{instr: r.instr, param: r.arg, key: rootOf(arg), arg: arg}), arg.Type(), r.sub)
				c.report(checkDoublePut, second.Pos(), nil,
					"%s may be put into the pool twice: line %d stored it in %s, which the call at line %d puts, and line %d puts it too; two later Gets can return the same object; leave it to one owner",
					c.objName(p), c.line(h.instr.Pos()), where, c.line(r.instr.Pos()), c.line(first.Pos()))
				return
			}
		}
	}
}

// isDefer reports whether instr is a defer statement.
func isDefer(instr ssa.Instruction) bool {
	_, ok := instr.(*ssa.Defer)
	return ok
}

// storesBetween reports whether fn stores into the field path of h again
// where that can run after h and before at (the field is cleared or
// replaced before the release).
func storesBetween(fn *ssa.Function, h held, at ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || instr == h.instr {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			if base, path := fieldAddrChain(fa); base == h.at.base && path == h.at.path && mayPrecede(h.instr, st) && (isDefer(at) || mayPrecede(st, at)) {
				return true
			}
		}
	}
	return false
}
