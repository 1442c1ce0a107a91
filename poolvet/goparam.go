package poolvet

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// checkPooledParamGo reports a function that is given an object of a type
// the package pools (a parameter *T, where a Put of the package puts *T),
// starts a goroutine that uses it, and can return before that goroutine is
// done with it: the object is on loan to the function, and whoever lent it
// puts it back once the call returns (a framework's context, put back when
// the handler returns: goravel/gin#222's timeout middleware). The caller is
// often unknown here (a handler or middleware called through a func
// value), so the report is at the go statement.
//
// Only functions the package never calls directly are judged here (a
// handler, a middleware, a func literal passed on): a direct caller is
// judged at its own Put (checkHandOffs), and it may wait for the goroutine
// itself (valyala/fasthttp#1205's fix waits in the caller). Left out too:
// a parameter the function may put back itself (it decides; checkHandOffs),
// the receiver (a type that runs goroutines of its own has its
// own way to wait for them), goroutines that put the object back
// themselves (they own it; goHandsOff), functions that wait for the
// goroutine on every path to a return (returnsAfterHandOff), and objects
// with a method that waits on one of their own channels (waitsOnItself).
func (c *checker) checkPooledParamGo(fn *ssa.Function) {
	if !*enabled[checkUseAfterPut] {
		return
	}
	s := c.sums[fn]
	if s == nil || len(s.handsOff) == 0 || len(c.callSitesOf(fn)) > 0 {
		return
	}
	puts, _ := c.sites(fn)
	for i, prm := range fn.Params {
		if !s.handsOff[i] || isReceiver(prm) || putsParam(puts, prm) {
			continue
		}
		what, ok := c.pooledParamType(prm.Type())
		if !ok {
			continue
		}
		if c.marksAbandoned(fn, prm) || c.waitsOnItself(prm.Type()) {
			continue
		}
		t := c.newTracker(fn, objKey{prm, false})
		for _, h := range c.handOffs(fn, t) {
			g, ok := h.instr.(*ssa.Go)
			if !ok || reassignedBinding(g, prm) {
				continue
			}
			if found, _ := c.returnsAfterHandOff(t, h.instr); !found {
				continue
			}
			c.report(checkUseAfterPut, h.pos(), nil,
				"%s, %s, is handed to a goroutine that may still use it when %s returns: the caller that lent it puts it back after the call, and the next Get hands it to another user mid-use; wait for the goroutine, or give it a copy",
				prm.Name(), what, displayName(fn))
			break
		}
	}
}

// waitsOnItself reports whether the type t points to has a method that
// waits on a channel or WaitGroup field of its receiver (<-j.done or
// j.wg.Wait(), in a WaitDone): an
// object that carries its own completion signal, which its owner waits on
// before putting it back (matrixone's prefetch Job, run by a scheduler's
// goroutine and recycled after job.WaitDone()).
func (c *checker) waitsOnItself(t types.Type) bool {
	n, ok := namedPtr(t)
	if !ok {
		return false
	}
	for _, g := range c.funcs {
		if g.Signature.Recv() == nil || len(g.Params) == 0 || g.Parent() != nil {
			continue
		}
		if gn, ok := namedPtr(g.Params[0].Type()); !ok || gn.Obj() != n.Obj() {
			continue
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				if x, ok := instr.(*ssa.Call); ok {
					// j.wg.Wait() on a WaitGroup field of the receiver.
					if callee := x.Call.StaticCallee(); callee != nil && callee.Name() == "Wait" && len(x.Call.Args) == 1 {
						if fa, ok := x.Call.Args[0].(*ssa.FieldAddr); ok && fa.X == g.Params[0] && isNamed(derefType(fa.Type()), "sync", "WaitGroup") {
							return true
						}
					}
				}
				if sel, ok := instr.(*ssa.Select); ok && !sel.Blocking {
					continue
				}
				for _, ch := range recvChans(instr) {
					if fa, ok := loadedField(ch); ok && fa.X == g.Params[0] {
						return true
					}
				}
			}
		}
	}
	return false
}

// reassignedBinding reports whether the goroutine of g captures a variable
// that holds prm at first and is assigned something else too (c = c.Copy()
// before go func() { use(c) }()): which one the goroutine sees depends on
// the path, and a copy is what the fix would give it.
func reassignedBinding(g *ssa.Go, prm *ssa.Parameter) bool {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	for _, b := range mc.Bindings {
		if cell, ok := b.(*ssa.Alloc); ok {
			if holds, other := cellStores(cell, prm); holds && other {
				return true
			}
		}
	}
	return false
}

// cellStores reports whether the variable cell is assigned prm, and
// whether it is assigned anything else (localStores).
func cellStores(cell *ssa.Alloc, prm *ssa.Parameter) (holds, other bool) {
	for _, st := range localStores(cell) {
		if st.Val == prm {
			holds = true
		} else {
			other = true
		}
	}
	return holds, other
}

// marksAbandoned reports whether fn sets, on prm, directly or through a
// method of prm (three calls deep), a field that a Put of the type is
// guarded by: the package keeps a marked object out of the pool (valyala/
// fasthttp's TimeoutErrorWithCode sets ctx.timeoutResponse, and the
// server never releases a ctx that has one).
func (c *checker) marksAbandoned(fn *ssa.Function, prm *ssa.Parameter) bool {
	n, ok := namedPtr(prm.Type())
	if !ok {
		return false
	}
	guards := c.putGuardFields(n.Obj())
	if len(guards) == 0 {
		return false
	}
	// is reports whether v is recv: the parameter, or, at the top, a load
	// of the variable a closure captures it in.
	is := func(v, recv ssa.Value, depth int) bool {
		if v == recv {
			return true
		}
		ld, ok := v.(*ssa.UnOp)
		return ok && depth == 0 && ld.Op == token.MUL && cellOnlyHolds(ld.X, prm)
	}
	var sets func(f *ssa.Function, recv ssa.Value, depth int) bool
	sets = func(f *ssa.Function, recv ssa.Value, depth int) bool {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Store:
					if fa, ok := x.Addr.(*ssa.FieldAddr); ok && is(fa.X, recv, depth) && guards[fa.Field] {
						return true
					}
				case *ssa.Call:
					callee := x.Call.StaticCallee()
					if depth < 3 && callee != nil && callee.Signature.Recv() != nil && len(x.Call.Args) > 0 &&
						is(x.Call.Args[0], recv, depth) && len(callee.Params) > 0 && sets(callee, callee.Params[0], depth+1) {
						return true
					}
				}
			}
		}
		return false
	}
	return sets(fn, prm, 0)
}

// cellOnlyHolds reports whether v is a variable (an Alloc) into which only
// prm is stored.
func cellOnlyHolds(v ssa.Value, prm *ssa.Parameter) bool {
	cell, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	holds, other := cellStores(cell, prm)
	return holds && !other
}

// putGuardFields returns the fields of the struct type tn that a sync.Pool
// Put of a *tn is guarded by: the Put is reached only on one side of an if
// that tests the field of the object it puts (if ctx.timeoutResponse !=
// nil { panic(...) }; pool.Put(ctx)); built on first use.
func (c *checker) putGuardFields(tn *types.TypeName) map[int]bool {
	if c.putGuards == nil {
		c.putGuards = map[*types.TypeName]map[int]bool{}
	}
	if g, ok := c.putGuards[tn]; ok {
		return g
	}
	out := map[int]bool{}
	c.putGuards[tn] = out
	c.eachSyncPut(func(_ *ssa.Function, p *putSite, arg ssa.Value) {
		if n, ok := namedPtr(arg.Type()); !ok || n.Obj() != tn {
			return
		}
		pb := p.instr.Block()
		for d := pb.Idom(); d != nil; d = d.Idom() {
			ifi, ok := lastInstr(d).(*ssa.If)
			if !ok || len(d.Succs) != 2 {
				continue
			}
			f, ok := testedField(ifi.Cond, arg)
			if !ok {
				continue
			}
			for _, s := range d.Succs {
				if len(s.Preds) == 1 && s.Dominates(pb) {
					out[f] = true
				}
			}
		}
	})
	return out
}

// testedField returns the field of obj that cond tests: obj.f (a bool),
// or obj.f compared with == or !=.
func testedField(cond, obj ssa.Value) (int, bool) {
	fieldOf := func(v ssa.Value) (int, bool) {
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return 0, false
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		if !ok || fa.X != obj {
			return 0, false
		}
		return fa.Field, true
	}
	if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		if f, ok := fieldOf(bin.X); ok {
			return f, true
		}
		return fieldOf(bin.Y)
	}
	return fieldOf(cond)
}

// putsParam reports whether one of the Puts of fn, conditional or not,
// puts the parameter prm.
func putsParam(puts []putSite, prm *ssa.Parameter) bool {
	for i := range puts {
		if puts[i].key.v == prm {
			return true
		}
	}
	return false
}

// pooledParamType describes the type of a parameter that is on loan from a
// pool: *T, where the package puts *T into a sync.Pool, or *W, a struct of
// the package with a field of such a type or of an interface of the package
// that such a *T implements (a wrapper built around the pooled context for
// a handler: erda-project/erda#2348's *Context around echo's context).
func (c *checker) pooledParamType(t types.Type) (string, bool) {
	n, ok := namedPtr(t)
	if !ok || n.Obj().Pkg() != c.pass.Pkg {
		return "", false
	}
	pooled := c.pooledPtrTypes()
	if pooled[n.Obj()] {
		return "a *" + n.Obj().Name() + " (a type this package puts into a pool)", true
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if fn, ok := namedPtr(f.Type()); ok && pooled[fn.Obj()] {
			return sprintf("a *%s whose field %s holds a pooled *%s", n.Obj().Name(), f.Name(), fn.Obj().Name()), true
		}
		fn, ok := types.Unalias(f.Type()).(*types.Named)
		if !ok || fn.Obj().Pkg() != c.pass.Pkg {
			continue
		}
		iface, ok := fn.Underlying().(*types.Interface)
		if !ok || iface.NumMethods() == 0 {
			continue
		}
		var impl []string // sorted, for a stable message
		for tn := range pooled {
			if types.Implements(types.NewPointer(tn.Type()), iface) {
				impl = append(impl, tn.Name())
			}
		}
		if len(impl) > 0 {
			slices.Sort(impl)
			return sprintf("a *%s whose field %s can hold a pooled *%s", n.Obj().Name(), f.Name(), impl[0]), true
		}
	}
	return "", false
}

// namedPtr returns T for a type *T with T named.
func namedPtr(t types.Type) (*types.Named, bool) {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil, false
	}
	n, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return n, ok
}

// pooledPtrTypes returns the named types T of the package such that a
// sync.Pool Put of the package puts a *T; built on first use. Unlike
// pooledTypes it leaves out the types of their fields, which are not on
// loan by themselves.
func (c *checker) pooledPtrTypes() map[*types.TypeName]bool {
	if c.pooledPtrSet != nil {
		return c.pooledPtrSet
	}
	c.pooledPtrSet = map[*types.TypeName]bool{}
	c.eachSyncPut(func(_ *ssa.Function, _ *putSite, arg ssa.Value) {
		if n, ok := namedPtr(arg.Type()); ok && n.Obj().Pkg() == c.pass.Pkg {
			c.pooledPtrSet[n.Obj()] = true
		}
	})
	return c.pooledPtrSet
}

// eachSyncPut calls f for each sync.Pool Put of the package's functions,
// with the value put (unwrapped from its interface conversion).
func (c *checker) eachSyncPut(f func(fn *ssa.Function, p *putSite, arg ssa.Value)) {
	for _, fn := range c.funcs {
		puts, _ := c.sites(fn)
		for i := range puts {
			p := &puts[i]
			if p.prim != syncPut {
				continue
			}
			arg := p.arg
			if mi, ok := arg.(*ssa.MakeInterface); ok {
				arg = mi.X
			}
			f(fn, p, arg)
		}
	}
}
