package poolvet

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A fieldPutSite is a Put, in fn, of what a struct field held when it was
// loaded (put(c.cache), pool.Put(m.ptr.Load())).
type fieldPutSite struct {
	fn    *ssa.Function
	p     *putSite
	fa    *ssa.FieldAddr // the field's address in fn
	load  ssa.Value      // the load of the field
	field *types.Var
}

// heldField returns the address of the struct field v was loaded from, as
// it is or through the Load method of a sync/atomic Pointer or Value, and
// the load itself.
func heldField(v ssa.Value) (*ssa.FieldAddr, ssa.Value) {
	v = stripConv(v)
	if ta, ok := v.(*ssa.TypeAssert); ok {
		v = ta.X
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			return fa, x
		}
	case *ssa.Call:
		if fa := atomicField(&x.Call, "Load"); fa != nil {
			return fa, x
		}
	}
	return nil, nil
}

// atomicField returns the field whose address is the receiver of a call of
// the named method of sync/atomic's Pointer or Value, or nil.
func atomicField(com *ssa.CallCommon, names ...string) *ssa.FieldAddr {
	g := com.StaticCallee()
	if g == nil || g.Signature.Recv() == nil || len(com.Args) == 0 {
		return nil
	}
	obj, _ := g.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return nil
	}
	ok := false
	for _, n := range names {
		ok = ok || obj.Name() == n
	}
	fa, _ := com.Args[0].(*ssa.FieldAddr)
	if !ok || fa == nil {
		return nil
	}
	return fa
}

// fieldVar returns the struct field fa addresses, or nil.
func fieldVar(fa *ssa.FieldAddr) *types.Var {
	if st, ok := derefStruct(fa.X.Type()); ok && fa.Field < st.NumFields() {
		return st.Field(fa.Field)
	}
	return nil
}

// clearsField reports whether instr stores into the field fa addresses on
// the same base (an assignment, or a Store, Swap or CompareAndSwap of an
// atomic field), or passes that base to a function of the package that
// assigns the field.
func (c *checker) clearsField(instr ssa.Instruction, fa *ssa.FieldAddr, v *types.Var) bool {
	same := func(f *ssa.FieldAddr) bool {
		return f != nil && f.Field == fa.Field && (sameAddr(f.X, fa.X, 0) || sameLoc(f.X, fa.X))
	}
	switch x := instr.(type) {
	case *ssa.Store:
		f, _ := x.Addr.(*ssa.FieldAddr)
		return same(f)
	case ssa.CallInstruction:
		com := x.Common()
		if same(atomicField(com, "Store", "Swap", "CompareAndSwap")) {
			return true
		}
		g := com.StaticCallee()
		if g == nil || len(g.Blocks) == 0 {
			return false
		}
		for _, a := range callArgs(com) {
			if a == fa.X || sameLoc(a, fa.X) {
				return assignsField(g, v, nil)
			}
		}
	}
	return false
}

// assignsField reports whether g assigns the field v (on any base) with a
// store for which where holds, or with any store if where is nil.
func assignsField(g *ssa.Function, v *types.Var, where func(*ssa.Store) bool) bool {
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && (where == nil || where(st)) {
				if f, ok := st.Addr.(*ssa.FieldAddr); ok && fieldVar(f) == v {
					return true
				}
			}
		}
	}
	return false
}

// releaseLike reports whether a function's name says it ends the holder's
// life (Close, release, free...): a field it puts and leaves is not read
// again.
func releaseLike(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"close", "release", "free", "put", "recycle", "dispose", "destroy", "finaliz", "finish", "done", "stop", "shutdown", "discard", "cleanup", "teardown", "reset", "return", "unref", "decref", "end", "drop", "abort", "cancel", "clear", "dealloc"} {
		if strings.HasPrefix(n, w) {
			return true
		}
	}
	return false
}

// checkKeptFieldElsewhere reports a Put of what a struct field holds that
// leaves the field holding it, in a function that does not end the
// holder's life, when another function of the package puts what that
// field holds: after the first, the second puts the same object again
// (panjf2000/gnet 8e48b2d: loopRead puts c.cache and leaves it, releaseTCP
// puts a non-nil c.cache; DataDog/dd-trace-go#3430: Payload puts the
// metric's current point and leaves it, Submit swaps it out and puts it).
// A function that fills the field before its Put can run again; then the
// calls of the other function are the second Puts and are reported;
// otherwise the Put that leaves the field is (a second run of it puts
// again too).
func (c *checker) checkKeptFieldElsewhere() {
	if !*enabled[checkDoublePut] {
		return
	}
	byField := map[*types.Var][]fieldPutSite{}
	var order []*types.Var
	for _, fn := range c.funcs {
		puts, _ := c.sites(fn)
		for i := range puts {
			p := &puts[i]
			if p.field || p.asserted || p.arg == nil || !trackable(p) {
				continue
			}
			fa, load := heldField(p.arg)
			if fa == nil {
				continue
			}
			v := fieldVar(fa)
			if v == nil || v.Pkg() != c.pass.Pkg {
				continue
			}
			if byField[v] == nil {
				order = append(order, v)
			}
			byField[v] = append(byField[v], fieldPutSite{fn, p, fa, load, v})
		}
	}
	for _, v := range order {
		sites := byField[v]
		for _, s := range sites {
			var other *fieldPutSite
			for j := range sites {
				if sites[j].fn != s.fn && onReceiver(sites[j]) {
					other = &sites[j]
					break
				}
			}
			if other == nil && c.leavesField(s) && !c.fillsBefore(s) {
				// No other Put of the field, but a function that takes a
				// new object only when the field is nil: after this Put
				// the field keeps the old one, which is used again and
				// put again by the next run of this function
				// (VictoriaMetrics#9351's quantiles flush).
				if g, at := c.lazyFilled(s.field); g != nil {
					c.report(checkDoublePut, s.p.instr.Pos(), nil,
						"%s puts %s back into the pool and leaves the field holding it, while %s (line %d) takes a new object from the pool only when the field is nil: the old object is used again, and the next %s puts it twice; clear the field after the Put",
						s.fn.Name(), c.objName(s.p), displayName(g), c.line(at), s.fn.Name())
				}
				continue
			}
			if other == nil || !c.leavesField(s) {
				continue
			}
			if c.fillsBefore(s) {
				c.reportOtherCalls(s, other)
				continue
			}
			if c.reportPairedCalls(s, sites) {
				continue
			}
			c.report(checkDoublePut, s.p.instr.Pos(), nil,
				"%s puts %s back into the pool and leaves the field holding it, and %s (line %d) puts what that field holds too: the object can be put twice; clear the field after the Put",
				s.fn.Name(), c.objName(s.p), displayName(other.fn), c.line(other.p.instr.Pos()))
		}
	}
}

// leavesField reports whether s's Put leaves its field holding the object
// when its function returns: nothing in the function clears or replaces
// the field after the load, the holder is not fresh nor put itself, the
// function's name does not end the holder's life, and no caller of the
// function clears the field after the call.
func (c *checker) leavesField(s fieldPutSite) bool {
	if s.fn.Parent() != nil || releaseLike(s.fn.Name()) {
		return false
	}
	if _, fresh := s.fa.X.(*ssa.Alloc); fresh {
		return false
	}
	if marksState(s) {
		return false
	}
	load, _ := s.load.(ssa.Instruction)
	if load == nil {
		return false
	}
	for _, b := range s.fn.Blocks {
		for _, instr := range b.Instrs {
			if c.clearsField(instr, s.fa, s.field) && mayPrecede(load, instr) {
				return false
			}
		}
	}
	puts, _ := c.sites(s.fn)
	for i := range puts {
		if k := puts[i].key.v; k == s.fa.X || sameLoc(k, s.fa.X) {
			return false
		}
	}
	for _, ci := range c.callSitesOf(s.fn) {
		if assignsField(ci.Parent(), s.field, func(st *ssa.Store) bool { return mayPrecede(ci, st) }) {
			return false
		}
	}
	return true
}

// fillsBefore reports whether s's function assigns the field before the
// load it puts (c.cache = in; ...; put(c.cache)): running it again puts a
// new object.
func (c *checker) fillsBefore(s fieldPutSite) bool {
	load := s.load.(ssa.Instruction)
	for _, b := range s.fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && c.clearsField(st, s.fa, s.field) && mayPrecede(st, load) && !mayPrecede(load, st) {
				return true
			}
		}
	}
	return false
}

// reportOtherCalls reports the calls of other's function on a holder of
// the field, outside s's function and not after an assignment of the field
// in the caller; or other's Put itself when nothing in the package calls
// its function.
func (c *checker) reportOtherCalls(s fieldPutSite, other *fieldPutSite) {
	found := false
	for _, ci := range c.callSitesOf(other.fn) {
		g := ci.Parent()
		if g == s.fn || g == other.fn {
			continue
		}
		found = true
		if assignsField(g, s.field, func(st *ssa.Store) bool { return mayPrecede(st, ci) }) {
			continue
		}
		c.report(checkDoublePut, ci.Pos(), nil,
			"%s puts what %s holds, but %s (line %d) put that object back into the pool and left it in the field: it can be put twice; clear the field where it is put",
			other.fn.Name(), s.field.Name(), s.fn.Name(), c.line(s.p.instr.Pos()))
	}
	if !found {
		c.report(checkDoublePut, other.p.instr.Pos(), nil,
			"%s is put here, but %s (line %d) put what %s holds back into the pool and left it in the field: it can be put twice; clear the field where it is put",
			c.objName(other.p), s.fn.Name(), c.line(s.p.instr.Pos()), s.field.Name())
	}
}

// baseChain returns the values a field address is reached from: its base,
// the base of that, and so on through field addresses, loads of fields
// and elements of slices (c.outputSeries[i].indices: the element, then c).
func baseChain(fa *ssa.FieldAddr) []ssa.Value {
	var out []ssa.Value
	v := fa.X
	for i := 0; i < 8; i++ {
		out = append(out, v)
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return out
			}
			v = x.X
		default:
			return out
		}
	}
	return out
}

// onReceiver reports whether s's function is a method whose receiver holds
// the field: the type itself puts it, so the field belongs to the holder's
// life (a release method).
func onReceiver(s fieldPutSite) bool {
	if s.fn.Signature.Recv() == nil || len(s.fn.Params) == 0 {
		return false
	}
	chain := baseChain(s.fa)
	return chain[len(chain)-1] == s.fn.Params[0]
}

// marksState reports whether s's function assigns a boolean or integer
// field of a value the field is reached from (closed = true, next++):
// it records that the object is done with, so other functions can tell;
// or reads a boolean one (if e.closed { return }), which the closed-flag
// rule (checkGuardedAgain) follows.
func marksState(s fieldPutSite) bool {
	chain := map[ssa.Value]bool{}
	for _, v := range baseChain(s.fa) {
		chain[v] = true
	}
	for _, b := range s.fn.Blocks {
		for _, instr := range b.Instrs {
			var f *ssa.FieldAddr
			kinds := types.IsBoolean | types.IsInteger
			switch x := instr.(type) {
			case *ssa.Store:
				f, _ = x.Addr.(*ssa.FieldAddr)
			case *ssa.UnOp:
				if x.Op == token.MUL {
					f, _ = x.X.(*ssa.FieldAddr)
					kinds = types.IsBoolean
				}
			}
			if f == nil || !chain[f.X] && !chainHas(chain, f.X) {
				continue
			}
			if bt, ok := f.Type().(*types.Pointer).Elem().Underlying().(*types.Basic); ok && bt.Info()&kinds != 0 {
				return true
			}
		}
	}
	return false
}

// chainHas reports whether v is the same location as one of chain's values.
func chainHas(chain map[ssa.Value]bool, v ssa.Value) bool {
	for w := range chain {
		if sameLoc(w, v) || sameAddr(w, v, 0) {
			return true
		}
	}
	return false
}

// reportPairedCalls reports the calls of s's function in a function that
// also calls, or defers, another function that puts the field on the same
// holder after it (defer b.Close(); return b.Commit(), where Commit puts
// b.batch and leaves it: onflow/flow-go#7488), and says whether there was
// one.
func (c *checker) reportPairedCalls(s fieldPutSite, sites []fieldPutSite) bool {
	// The calls of the other functions that put the field, by caller.
	others := map[*ssa.Function][]ssa.CallInstruction{}
	seen := map[*ssa.Function]bool{s.fn: true}
	for _, o := range sites {
		if seen[o.fn] || !onReceiver(o) {
			continue
		}
		seen[o.fn] = true
		for _, ci := range c.callSitesOf(o.fn) {
			others[ci.Parent()] = append(others[ci.Parent()], ci)
		}
	}
	for _, cis := range others {
		sort.Slice(cis, func(i, j int) bool { return cis[i].Pos() < cis[j].Pos() }) // source order, as the calls run
	}
	found := false
	for _, call := range c.callSitesOf(s.fn) {
		if len(call.Common().Args) == 0 {
			continue
		}
		for _, o := range others[call.Parent()] {
			if len(o.Common().Args) == 0 {
				continue
			}
			if x, y := call.Common().Args[0], o.Common().Args[0]; x != y && !sameLoc(x, y) {
				continue
			}
			if isDefer(o) && mayPrecede(o, call) || !isDefer(o) && mayPrecede(call, o) {
				c.report(checkDoublePut, call.Pos(), nil,
					"%s puts what %s holds back into the pool and leaves the field holding it, and %s (line %d) puts what that field holds again: the object can be put twice; clear the field after the Put, or call one of the two",
					s.fn.Name(), s.field.Name(), o.Common().StaticCallee().Name(), c.line(o.Pos()))
				found = true
				break
			}
		}
	}
	return found
}

// lazyFilled returns a function of the package that stores into the field
// v what a pool's Get (or a getter of the package) returned, on the branch
// where the field was found nil (if x.h == nil { x.h = getH() }), and
// where it does.
func (c *checker) lazyFilled(v *types.Var) (*ssa.Function, token.Pos) {
	var fn *ssa.Function
	at := token.NoPos
	c.eachFieldStore(func(g *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		if fn == nil && fieldVar(fa) == v && c.gotFromGet(st.Val) && nilBranch(st.Block(), v) {
			fn, at = g, st.Pos()
		}
	})
	return fn, at
}

// gotFromGet reports whether v is what a pool's Get returned, asserted or
// not, or the result of a function of the package that gets from a pool.
func (c *checker) gotFromGet(v ssa.Value) bool {
	if c.isGetCall(v) {
		return true
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	ce, ok := c.calleeOf(&call.Call)
	return ok && ce.sum != nil && ce.sum.gets
}

// nilBranch reports whether block b is entered only from the branch of an
// if that found the field v nil (if x.f == nil { b }).
func nilBranch(b *ssa.BasicBlock, v *types.Var) bool {
	return nilBranchOf(b, func(v2 ssa.Value) bool {
		ld, ok := v2.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return false
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		return ok && fieldVar(fa) == v
	})
}

// nilBranchOf reports whether block b is entered only from the branch of
// an if that found nil a value for which is reports true (if x == nil { b }).
func nilBranchOf(b *ssa.BasicBlock, is func(ssa.Value) bool) bool {
	if len(b.Preds) != 1 {
		return false
	}
	ifi, ok := lastInstr(b.Preds[0]).(*ssa.If)
	if !ok {
		return false
	}
	x, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || x.Op != token.EQL && x.Op != token.NEQ {
		return false
	}
	if !(is(x.X) && isNil(x.Y) || is(x.Y) && isNil(x.X)) {
		return false
	}
	want := ifi.Block().Succs[0] // == nil: the true branch
	if x.Op == token.NEQ {
		want = ifi.Block().Succs[1]
	}
	return want == b
}
