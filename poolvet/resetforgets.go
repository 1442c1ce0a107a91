package poolvet

import (
	"fmt"
	"go/token"
	"go/types"
	"math/bits"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A Reset method that truncates or drops two or more fields of its
// receiver but not a slice field that a method of the type grows by
// appending, through a local copy (tss := wr.ts; tss = append(tss, ...);
// wr.ts = tss), which checkStalePut's appended fields do not count, or
// that a function given the object appends to in place. The
// type is pooled, or a field of a pooled type: what the forgotten field
// holds stays for the next user, who appends after it
// (VictoriaMetrics/VictoriaMetrics 7aee8b6's exemplarsPool). Reported at
// the Reset declaration, the place to fix.

// checkResetForgets reports fn when it is such a Reset.
func (c *checker) checkResetForgets(fn *ssa.Function) {
	if !isResetName(fn.Name()) || fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Parent() != nil {
		return
	}
	recv := fn.Params[0]
	n, st, ok := c.pooledStructPtr(recv)
	if !ok {
		return
	}
	var reset, touched fieldSet
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != recv || fa.Field >= 64 {
					continue
				}
				touched |= 1 << fa.Field
				if sl, ok := x.Val.(*ssa.Slice); ok && sl.High != nil && isConstN(sl.High, 0) || isNil(x.Val) {
					reset |= 1 << fa.Field
				}
			case ssa.CallInstruction:
				for _, a := range x.Common().Args {
					if fa, ok := a.(*ssa.FieldAddr); ok && fa.X == recv && fa.Field < 64 {
						touched |= 1 << fa.Field // r.f.Reset(), clear(&r.f)...
					}
				}
			}
		}
	}
	if (fn.Name() == "Reset" || fn.Name() == "reset") && c.reportForgottenScalars(fn, n, st, touched) {
		return
	}
	if c.reportLazyCache(fn, n, st, touched) {
		return
	}
	if (fn.Name() == "Reset" || fn.Name() == "reset") && c.reportForgottenOption(fn, n, st, touched) {
		return
	}
	if c.reportForgottenAtomicFlag(fn, n, st, touched) {
		return
	}
	count := 0
	for f := 0; f < st.NumFields(); f++ {
		if reset&(1<<f) != 0 {
			count++
		}
	}
	// A Reset named as such that resets fewer than two fields still
	// reports a slice field appended to in place and truncated nowhere:
	// the Reset is the one place that could (dubbo-go-pixiu's
	// HttpContext.Reset and its Filters).
	exact := (fn.Name() == "Reset" || fn.Name() == "reset") && touched != 0
	if count < 2 && !exact {
		return
	}
	grown := c.grownThroughLocal(n.Obj())
	inPlace := c.appendedFields(n.Obj())
	for f := 0; f < st.NumFields(); f++ {
		if touched&(1<<f) != 0 || grown[f] == "" || count < 2 && inPlace[f] == "" {
			continue
		}
		if _, ok := st.Field(f).Type().Underlying().(*types.Slice); !ok {
			continue
		}
		what := fmt.Sprintf("clears %d fields of %s", count, n.Obj().Name())
		if count < 2 {
			what = "resets " + n.Obj().Name()
		}
		c.report(checkNoReset, fn.Pos(), nil,
			"%s %s but not %s, which %s appends to: a pooled %s keeps what the previous user appended there, and the next user appends after it; truncate it here too",
			fn.Name(), what, st.Field(f).Name(), grown[f], n.Obj().Name())
		return
	}
	// An interface or func field (a handler, a callback) that a function
	// given the object sets on some paths only, and that a user reads
	// after a Get before anything writes it (labstack/echo 296498c: reset
	// left handler, which Router.Find sets only when a route matches).
	if fn.Name() == "Reset" || fn.Name() == "reset" {
		reads := c.readAfterReset(fn)
		setBy := c.setByUsers(n.Obj())
		for f := 0; f < st.NumFields(); f++ {
			if touched&(1<<f) != 0 || reads&(1<<f) == 0 || setBy[f] == "" || !behaviourType(st.Field(f).Type()) {
				continue
			}
			c.report(checkNoReset, fn.Pos(), nil,
				"%s resets %s but not %s, which %s sets on some paths and a user of the pool reads after this reset before anything writes it: a pooled %s hands the previous user's %s to the next; set it here",
				fn.Name(), n.Obj().Name(), st.Field(f).Name(), setBy[f], n.Obj().Name(), st.Field(f).Name())
			return
		}
	}
	// A map field that a function given the object fills (c.store[k] = v)
	// and nothing empties but a lazy make when it is nil (labstack/echo#1,
	// fixed in 6d733d3: reset left the store that Context.Set writes to).
	filled := c.filledMaps(n.Obj())
	for f := 0; f < st.NumFields(); f++ {
		by, ok := filled[f]
		if !ok || touched&(1<<f) != 0 {
			continue
		}
		c.report(checkNoReset, fn.Pos(), nil,
			"%s resets %s but not %s, a map that %s adds entries to: a pooled %s keeps the previous user's entries, and the next user finds them there; clear it here (clear(m), or m = nil)",
			fn.Name(), n.Obj().Name(), st.Field(f).Name(), by, n.Obj().Name())
		return
	}
}

// behaviourType reports whether t is an interface (other than error) or a
// func type: a field that decides what the object does next.
func behaviourType(t types.Type) bool {
	if isErrorType(t) {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Interface, *types.Signature:
		return true
	}
	return false
}

// readAfterReset returns the fields that a function reads, after taking
// an object from a sync.Pool and calling the reset method r on it, on a
// path where neither r nor anything after it wrote them yet (fieldFlow,
// which follows calls); built on first use.
func (c *checker) readAfterReset(r *ssa.Function) fieldSet {
	if c.readGet == nil {
		c.readGet = map[*ssa.Function]fieldSet{}
		c.eachGotStruct(func(fn *ssa.Function, get *ssa.Call, obj ssa.Value) {
			for _, ref := range *obj.Referrers() {
				call, ok := ref.(*ssa.Call)
				if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != obj {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Signature.Recv() == nil || !isResetName(callee.Name()) || !reachableFrom(get, call) {
					continue
				}
				u, _ := c.fieldFlow(fn, obj, call, 0)
				c.readGet[callee] |= u.reads &^ recvWrites(callee, 0, map[*ssa.Function]bool{})
			}
		})
	}
	return c.readGet[r]
}

// eachGotStruct calls f with each sync.Pool Get of the package whose result
// is asserted to a struct pointer, and the asserted object.
func (c *checker) eachGotStruct(f func(fn *ssa.Function, get *ssa.Call, obj ssa.Value)) {
	for _, fn := range c.funcs {
		_, gets := c.sites(fn)
		for _, g := range gets {
			if g.prim != syncGet {
				continue
			}
			if obj, _ := assertedStruct(g.call); obj != nil {
				f(fn, g.call, obj)
			}
		}
	}
}

// setAtGet returns the fields of the struct type tn that a method called
// on an object just taken from a sync.Pool writes (buf.reuse() in a Get
// wrapper): set again for every user, they carry nothing from the last.
func (c *checker) setAtGet(tn *types.TypeName) fieldSet {
	var out fieldSet
	c.eachGotStruct(func(fn *ssa.Function, _ *ssa.Call, obj ssa.Value) {
		if n, ok := namedPtr(obj.Type()); !ok || n.Obj() != tn {
			return
		}
		for _, ref := range *obj.Referrers() {
			call, ok := ref.(ssa.CallInstruction)
			if !ok {
				continue
			}
			callee := call.Common().StaticCallee()
			if callee == nil || callee.Pkg != fn.Pkg {
				continue
			}
			for j, a := range callArgs(call.Common()) {
				if a == obj {
					out |= recvWrites(callee, j, map[*ssa.Function]bool{})
				}
			}
		}
	})
	return out
}

// setByUsers returns the fields of tn that a function stores into on an
// object it was given (a parameter other than a method's receiver of
// another type, x.f = v), not one it made, with that function's name.
func (c *checker) setByUsers(tn *types.TypeName) map[int]string {
	out := map[int]string{}
	c.eachFieldStore(func(fn *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		prm, ok := fa.X.(*ssa.Parameter)
		if !ok || fa.Field >= 64 || isResetName(fn.Name()) {
			return
		}
		if n, ok := namedPtr(prm.Type()); !ok || n.Obj() != tn {
			return
		}
		if _, seen := out[fa.Field]; !seen {
			out[fa.Field] = displayName(fn)
		}
	})
	return out
}

// filledMaps returns the map fields of the struct type tn that a function
// adds entries to (x.f[k] = v, x not made in that function) and that no
// function replaces or empties other than by a make guarded by x.f == nil
// (lazy allocation), with the name of the first function that adds;
// built on first use.
func (c *checker) filledMaps(tn *types.TypeName) map[int]string {
	if c.filled == nil {
		c.filled = map[*types.TypeName]map[int]string{}
		managed := map[fieldRef]bool{}
		add := func(fn *ssa.Function, fa *ssa.FieldAddr) {
			ref, ok := fieldRefOf(fa)
			if !ok {
				return
			}
			if _, fresh := fa.X.(*ssa.Alloc); fresh {
				return
			}
			if c.filled[ref.obj] == nil {
				c.filled[ref.obj] = map[int]string{}
			}
			if _, seen := c.filled[ref.obj][ref.field]; !seen {
				c.filled[ref.obj][ref.field] = displayName(fn)
			}
		}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch x := instr.(type) {
					case *ssa.MapUpdate:
						if fa, ok := loadedField(x.Map); ok {
							add(fn, fa)
						}
					case *ssa.Store:
						fa, ok := x.Addr.(*ssa.FieldAddr)
						if !ok {
							continue
						}
						if _, fresh := fa.X.(*ssa.Alloc); fresh {
							continue // a constructor's
						}
						if _, mk := x.Val.(*ssa.MakeMap); mk && nilGuarded(x, fa) {
							continue
						}
						if ref, ok := fieldRefOf(fa); ok {
							managed[ref] = true
						}
					case ssa.CallInstruction:
						// clear(x.f), delete(x.f, k): emptied somewhere
						com := x.Common()
						if !isBuiltin(com, "clear") && !isBuiltin(com, "delete") || len(com.Args) == 0 {
							continue
						}
						if fa, ok := loadedField(com.Args[0]); ok {
							if ref, ok := fieldRefOf(fa); ok {
								managed[ref] = true
							}
						}
					}
				}
			}
		}
		for ref := range managed {
			delete(c.filled[ref.obj], ref.field)
		}
	}
	return c.filled[tn] // read only
}

// loadedField returns the field address v is loaded from (x.f).
func loadedField(v ssa.Value) (*ssa.FieldAddr, bool) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	return fa, ok
}

// nilGuarded reports whether the store st into the field at fa runs only
// when a load of that field was found nil (if x.f == nil { x.f = make(...) }).
func nilGuarded(st *ssa.Store, fa *ssa.FieldAddr) bool {
	b := st.Block()
	if len(b.Preds) != 1 {
		return false
	}
	ifi, ok := lastInstr(b.Preds[0]).(*ssa.If)
	if !ok {
		return false
	}
	bin, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL && bin.Op != token.NEQ {
		return false
	}
	// then-branch of ==, else-branch of !=
	if bin.Op == token.EQL && b.Preds[0].Succs[0] != b || bin.Op == token.NEQ && b.Preds[0].Succs[1] != b {
		return false
	}
	loadOf := func(v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		return ok && ld.Op == token.MUL && sameAddr(ld.X, fa, 0)
	}
	return loadOf(bin.X) && isNil(bin.Y) || loadOf(bin.Y) && isNil(bin.X)
}

// withCalleeWrites adds to touched, the fields the reset method fn writes
// or hands to a call, what the package's functions it gives its receiver
// write (r.clearState(), reset(r)); false when fn overwrites the whole
// receiver (*r = T{}) or gives it to code of another package.
func withCalleeWrites(fn *ssa.Function, touched fieldSet) (fieldSet, bool) {
	recv := fn.Params[0]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if x.Addr == recv {
					return touched, false // *r = T{}
				}
			case ssa.CallInstruction:
				g := x.Common().StaticCallee()
				if g == nil {
					continue
				}
				for j, a := range callArgs(x.Common()) {
					if a == recv {
						if g.Pkg != fn.Pkg {
							return touched, false // unknown code given the receiver
						}
						touched |= recvWrites(g, j, map[*ssa.Function]bool{fn: true})
					}
				}
			}
		}
	}
	return touched, true
}

// reportForgottenScalars reports the Reset method fn of the pooled type n
// (named Reset or reset: ResetWriter and the like re-target the object
// and keep its options on purpose)
// (touched: the fields of its receiver it writes or hands to a call) when
// it leaves a number, string or boolean field that other methods of the
// type keep as state: one writes it, and one reads it before writing it
// (dgrr/http2 28da461d: HPack.Reset kept tableSize and maxTableSize, so
// the next connection started with the last one's table size). Fields
// written outside the type's methods (by a constructor, a getter that
// sets them after Get) are left alone.
func (c *checker) reportForgottenScalars(fn *ssa.Function, n *types.Named, st *types.Struct, touched fieldSet) bool {
	// A Reset that writes two fields or more is judged at the Puts after
	// it, against the fields setters set (checkStalePut's setFields):
	// this is for the Reset that clears by other means (delete, a
	// callee) or one field only.
	// A type that is only a field of pooled objects has no Put of its
	// own to judge it at: its reset is the place (pingcap/tidb#45903:
	// Scanner.reset, called by the pooled Parser, kept identifierDot).
	if bits.OnesCount64(uint64(c.paramFieldUse(fn, 0, 0).may|recvWrites(fn, 0, map[*ssa.Function]bool{}))) >= 2 && c.putDirectly()[n.Obj()] {
		return false
	}
	touched, ok := withCalleeWrites(fn, touched)
	if !ok {
		return false
	}
	var cand fieldSet
	for f := 0; f < st.NumFields() && f < 64; f++ {
		if touched&(1<<f) == 0 && isScalar(st.Field(f).Type()) && !st.Field(f).Embedded() {
			cand |= 1 << f
		}
	}
	// A field the reset itself looks at (if d.closed { return err }) is
	// one it keeps on purpose: a lifecycle flag, not the last use's state.
	cand &^= flagReads(fn, allFields) | c.paramFieldUse(fn, 0, 0).reads
	if cand == 0 {
		return false
	}
	// Who writes each candidate: a method of n (other than a reset), or
	// anything else, which rules the field out.
	var byMethod, other fieldSet
	c.eachFieldStore(func(g *ssa.Function, _ *ssa.Store, fa *ssa.FieldAddr) {
		if fa.Field >= 64 || cand&(1<<fa.Field) == 0 {
			return
		}
		fn2, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
		if !ok || fn2.Obj() != n.Obj() {
			return
		}
		if g.Signature.Recv() != nil && len(g.Params) > 0 && fa.X == g.Params[0] && g.Parent() == nil {
			if !isResetName(g.Name()) {
				byMethod |= 1 << fa.Field
			}
			return
		}
		other |= 1 << fa.Field
	})
	cand &= byMethod &^ other &^ c.setAtGet(n.Obj())
	if cand == 0 {
		return false
	}
	// Read before written by a method of n.
	var stale fieldSet
	reader := ""
	// A method of n, or a function given a *n first (startWithNumber(s
	// *Scanner) in tidb's lexer).
	for _, g := range c.funcs {
		if g == fn || g.Parent() != nil || len(g.Params) == 0 || isResetName(g.Name()) {
			continue
		}
		rn, ok := types.Unalias(derefType(g.Params[0].Type())).(*types.Named)
		if !ok || rn.Obj() != n.Obj() || !isPointer(g.Params[0].Type()) {
			continue
		}
		if r := (c.paramFieldUse(g, 0, 0).reads | flagReads(g, cand)) & cand; r != 0 {
			if stale == 0 {
				reader = g.Name()
			}
			stale |= r
		}
	}
	if stale == 0 {
		return false
	}
	what := fieldsPhrase(st, stale)
	c.report(checkNoReset, fn.Pos(), nil,
		"%s leaves the %s of %s as the last user set it, and %s reads it before writing it: a pooled %s carries that value to its next user; clear it here",
		fn.Name(), what, n.Obj().Name(), reader, n.Obj().Name())
	return true
}

// flagReads returns the fields of cand that g loads from its first
// parameter and never writes: a flag that decides a branch (if
// s.identifierDot { ... }), which fieldFlow leaves out of its reads.
func flagReads(g *ssa.Function, cand fieldSet) fieldSet {
	var loads, stores fieldSet
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			var fa *ssa.FieldAddr
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.MUL {
					fa, _ = x.X.(*ssa.FieldAddr)
				}
			case *ssa.Store:
				if f, ok := x.Addr.(*ssa.FieldAddr); ok && f.X == g.Params[0] && f.Field < 64 {
					stores |= 1 << f.Field
				}
			}
			if fa != nil && fa.X == g.Params[0] && fa.Field < 64 {
				loads |= 1 << fa.Field
			}
		}
	}
	return loads &^ stores & cand
}

// putDirectly returns the named types of the package that a sync.Pool
// Put of the package puts (through a pointer); built on first use.
func (c *checker) putDirectly() map[*types.TypeName]bool {
	c.buildPooledSets()
	return c.putSet
}

// pooledTypes returns the named types of the package that a sync.Pool Put
// of the package puts (through a pointer), and the struct types of their
// fields; built on first use.
func (c *checker) pooledTypes() map[*types.TypeName]bool {
	c.buildPooledSets()
	return c.pooledSet
}

// buildPooledSets fills putSet and pooledSet in one pass over the Puts.
func (c *checker) buildPooledSets() {
	if c.putSet != nil {
		return
	}
	c.putSet = map[*types.TypeName]bool{}
	c.pooledSet = map[*types.TypeName]bool{}
	c.eachSyncPut(func(_ *ssa.Function, _ *putSite, arg ssa.Value) {
		n, ok := types.Unalias(derefType(arg.Type())).(*types.Named)
		if !ok || n.Obj().Pkg() != c.pass.Pkg {
			return
		}
		c.putSet[n.Obj()] = true
		c.pooledSet[n.Obj()] = true
		if st, ok := n.Underlying().(*types.Struct); ok {
			for j := 0; j < st.NumFields(); j++ {
				// A struct field, or one behind a pointer the pooled
				// object owns (Context.response *Response in echo,
				// labstack/echo#86).
				if fn, ok := types.Unalias(derefType(st.Field(j).Type())).(*types.Named); ok && fn.Obj().Pkg() == c.pass.Pkg {
					c.pooledSet[fn.Obj()] = true
				}
			}
		}
	})
}

// grownThroughLocal returns the slice fields of tn that a method of the
// package sets, on its receiver, to the result of appends to a copy of the
// field (x := r.f; x = append(x, ...); r.f = x), or that a function of the
// package appends to in place and nothing else assigns (appendedFields:
// rctx.methodsAllowed = append(rctx.methodsAllowed, m) in the router's
// findRoute, go-chi/chi 9dd8b4a), by field, with the function's name.
func (c *checker) grownThroughLocal(tn *types.TypeName) map[int]string {
	out := map[int]string{}
	c.eachFieldStore(func(fn *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fa.X != fn.Params[0] {
			return
		}
		n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
		if !ok || n.Obj() != tn || isResetName(fn.Name()) {
			return
		}
		if _, seen := out[fa.Field]; !seen && appendsToCopy(st.Val, fa) {
			out[fa.Field] = displayName(fn)
		}
	})
	for f, by := range c.appendedFields(tn) {
		if _, seen := out[f]; !seen {
			out[f] = by
		}
	}
	return out
}

// appendsToCopy reports whether v is an append to a load of the field at
// fa, or a phi of such appends and of that load (through a loop).
func appendsToCopy(v ssa.Value, fa *ssa.FieldAddr) bool {
	ph, ok := v.(*ssa.Phi)
	if !ok {
		return false
	}
	appended := false
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, d int) bool
	walk = func(v ssa.Value, d int) bool {
		if seen[v] || d > 6 {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !walk(e, d+1) {
					return false
				}
			}
			return true
		case *ssa.Call:
			if isBuiltin(&x.Call, "append") && len(x.Call.Args) > 0 {
				appended = true
				return walk(x.Call.Args[0], d+1)
			}
		case *ssa.UnOp:
			if x.Op == token.MUL && sameAddr(x.X, fa, 0) {
				return true
			}
		}
		return false
	}
	return walk(ph, 0) && appended
}

// pooledStructPtr returns the named struct type of v when v is a pointer to
// a struct type of the package, of 64 fields at most, that is pooled (put
// into a sync.Pool, or a field type of such a type).
func (c *checker) pooledStructPtr(v ssa.Value) (*types.Named, *types.Struct, bool) {
	n, ok := types.Unalias(derefType(v.Type())).(*types.Named)
	st, ok2 := derefStruct(v.Type())
	if !ok || !ok2 || !isPointer(v.Type()) || n.Obj().Pkg() != c.pass.Pkg || st.NumFields() > 64 || !c.pooledTypes()[n.Obj()] {
		return nil, nil, false
	}
	return n, st, true
}

// reportForgottenAtomicFlag reports a reset of a pooled type that sets one
// of the type's atomic state flags back (a field its methods switch with
// sync/atomic's CompareAndSwap) but not another such flag: the next user
// starts with that step already marked done (vllm-project/aibrix 6011243:
// reset set statsUpdated back to statusInitial, not traceAdded, so a
// recycled context never added its trace). Reported at the reset.
func (c *checker) reportForgottenAtomicFlag(fn *ssa.Function, n *types.Named, st *types.Struct, touched fieldSet) bool {
	flags := c.casFlags(n)
	if flags&touched == 0 {
		return false // the reset sets no flag back: not this kind of reset
	}
	forgotten := flags &^ touched
	for f := 0; f < st.NumFields() && f < 64; f++ {
		if forgotten&(1<<f) == 0 {
			continue
		}
		c.report(checkNoReset, fn.Pos(), nil,
			"%s sets some of %s's atomic state flags back but not %s, which its methods switch with CompareAndSwap: a reused object starts with that step already marked done; reset %s here too",
			fn.Name(), n.Obj().Name(), st.Field(f).Name(), st.Field(f).Name())
		return true
	}
	return false
}

// casFlags returns the fields of the struct n that methods of n pass, by
// address, to a sync/atomic CompareAndSwap function: state flags that move
// from one value to the next once per use.
func (c *checker) casFlags(n *types.Named) fieldSet {
	var out fieldSet
	for _, g := range c.funcs {
		if g.Signature.Recv() == nil || len(g.Params) == 0 {
			continue
		}
		if rn, ok := namedPtr(g.Params[0].Type()); !ok || rn.Obj() != n.Obj() {
			continue
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || len(call.Call.Args) == 0 {
					continue
				}
				callee := call.Call.StaticCallee()
				if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || !strings.HasPrefix(callee.Name(), "CompareAndSwap") {
					continue
				}
				if fa, ok := call.Call.Args[0].(*ssa.FieldAddr); ok && fa.X == g.Params[0] && fa.Field < 64 {
					out |= 1 << fa.Field
				}
			}
		}
	}
	return out
}
