package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Channel pools: a buffered channel used as a free list, filled by a
// non-blocking send (select { case p.c <- b: default: }) and drained by a
// non-blocking receive (select { case b = <-p.c: default: b = new(T) }).
// It bounds how many objects it keeps, not how large each is: a
// bytes.Buffer sent back after one huge use stays that large
// (unrolled/render#85). Only the unbounded check looks at them.

// eachNonBlocking calls f with each state of direction dir of the selects
// with a default case in fn.
func eachNonBlocking(fn *ssa.Function, dir types.ChanDir, f func(st *ssa.SelectState)) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			sel, ok := instr.(*ssa.Select)
			if !ok || sel.Blocking {
				continue
			}
			for _, st := range sel.States {
				if st.Dir == dir {
					f(st)
				}
			}
		}
	}
}

// chanPools returns the channels of the package that some function
// receives from in a select with a default case; built on first use.
func (c *checker) chanPools() map[chanKey]bool {
	if c.chanPoolSet == nil {
		c.chanPoolSet = map[chanKey]bool{}
		for _, fn := range c.funcs {
			eachNonBlocking(fn, types.RecvOnly, func(st *ssa.SelectState) {
				if k, ok := chanKeyOf(st.Chan); ok {
					c.chanPoolSet[k] = true
				}
			})
		}
	}
	return c.chanPoolSet
}

// checkChanPoolUnbounded reports a *bytes.Buffer or *strings.Builder sent
// back to a channel pool with no size check.
func (c *checker) checkChanPoolUnbounded(fn *ssa.Function) {
	if !*enabled[checkUnbounded] {
		return
	}
	eachNonBlocking(fn, types.SendOnly, func(st *ssa.SelectState) {
		v := st.Send
		if mi, ok := v.(*ssa.MakeInterface); ok {
			v = mi.X
		}
		t := v.Type()
		if isNil(v) {
			return
		}
		if prm, ok := v.(*ssa.Parameter); ok && isByteSlice(t) {
			// Put(b []byte): a buffer of any size a caller hands in
			// (minio/minio#20342: a pool of fixed-size buffers kept
			// whatever it was given, and Get handed it out).
			k, ok := chanKeyOf(st.Chan)
			if !ok || !c.chanPools()[k] || c.sizeChecked(fn, v) {
				return
			}
			c.report(checkUnbounded, st.Pos, nil,
				"%s ([]byte), a buffer of any size a caller hands in, is sent back to a channel pool without a capacity check: the channel bounds how many buffers it keeps, not how large each is, so one huge buffer stays pinned (golang/go#23199) and Get hands out buffers of sizes it never made; drop buffers whose capacity is not the pool's",
				prm.Name())
			return
		}
		if !growable(t) || !isBuilder(t) {
			c.checkChanPoolGrownField(fn, st, v)
			return
		}
		k, ok := chanKeyOf(st.Chan)
		if !ok || !c.chanPools()[k] || c.sizeChecked(fn, v) {
			return
		}
		c.report(checkUnbounded, st.Pos, nil,
			"%s (%s) is sent back to a channel pool without a capacity check: the channel bounds how many buffers it keeps, not how large each is, so one huge buffer stays pinned (golang/go#23199); drop buffers above a bound",
			valueName(v), types.TypeString(t, types.RelativeTo(c.pass.Pkg)))
	})
}

// checkChanPoolGrownField reports a pointer to a struct of the package
// whose field grows without bound (growingField) sent back to a channel
// pool with no size check. When the send is in a Put method handed the
// object, the report goes to each call of that method in the package that
// checks the size neither there nor in the method (a Release that calls
// pool.Put(pp), viciious/go-tarantool#69) when those calls are all in
// methods of the object's own type: that is where its fields are known and
// where a bound belongs. Otherwise the send is reported
// (DataDog/datadog-trace-agent#206's DecoderPool.Release).
func (c *checker) checkChanPoolGrownField(fn *ssa.Function, st *ssa.SelectState, v ssa.Value) {
	field, method, ok := c.growingField(v.Type())
	if !ok {
		field, method, ok = c.growingImpl(v.Type())
	}
	if !ok {
		return
	}
	k, ok := chanKeyOf(st.Chan)
	if !ok || !c.chanPools()[k] || c.sizeChecked(fn, v) {
		return
	}
	msg := "%s (%s) is sent back to a channel pool without a capacity check, and its field %s grows without bound (%s): the channel bounds how many objects it keeps, not how large each is, so one huge buffer stays pinned (golang/go#23199); drop objects whose %s is above a bound"
	typ := types.TypeString(v.Type(), types.RelativeTo(c.pass.Pkg))
	prm, isParam := v.(*ssa.Parameter)
	idx := -1
	for i, q := range fn.Params {
		if isParam && q == prm {
			idx = i
		}
	}
	sites := c.callSitesOf(fn)
	if idx < 0 || len(sites) == 0 || !allInMethodsOf(sites, v.Type()) {
		c.report(checkUnbounded, st.Pos, nil, msg, valueName(v), typ, field, method, field)
		return
	}
	for _, ci := range sites {
		com := ci.Common()
		if com.IsInvoke() || idx >= len(com.Args) {
			continue
		}
		arg := com.Args[idx]
		if c.guarded(ci.Parent(), rootOf(arg), 2) {
			continue
		}
		c.report(checkUnbounded, ci.Pos(), nil, msg, valueName(rootOf(arg).v), typ, field, method, field)
	}
}

// allInMethodsOf reports whether every call in sites is in a method of
// the type t (or of what t points to): the object's own Release.
func allInMethodsOf(sites []ssa.CallInstruction, t types.Type) bool {
	for _, ci := range sites {
		recv := ci.Parent().Signature.Recv()
		if recv == nil || !types.Identical(derefType(recv.Type()), derefType(t)) {
			return false
		}
	}
	return true
}

// sizeChecked reports whether fn compares the size of v, or of a value v
// may be (if b.Cap() > max { b = bytes.NewBuffer(...) }: the phi of b and
// a fresh buffer).
func (c *checker) sizeChecked(fn *ssa.Function, v ssa.Value) bool {
	if phi, ok := v.(*ssa.Phi); ok {
		for _, e := range phi.Edges {
			if e != v && c.guarded(fn, rootOf(e), 0) {
				return true
			}
		}
	}
	return c.guarded(fn, rootOf(v), 0)
}

// valueName names v for a message: its source name, or "the value".
func valueName(v ssa.Value) string {
	if phi, ok := v.(*ssa.Phi); ok && phi.Comment != "" {
		return phi.Comment
	}
	switch x := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return x.Name()
	case *ssa.UnOp:
		if a, ok := x.X.(*ssa.Alloc); ok && a.Comment != "" {
			return a.Comment
		}
	}
	return "the value"
}

// growingImpl is growingField for an interface of the package: that of the
// first struct type of the package implementing it (through a pointer)
// whose field grows without bound, its name prefixed to the field's (a
// channel pool of decoders, DataDog/datadog-trace-agent#206).
func (c *checker) growingImpl(t types.Type) (field, method string, ok bool) {
	n, isNamed := types.Unalias(t).(*types.Named)
	iface, isIface := t.Underlying().(*types.Interface)
	if !isNamed || !isIface || n.Obj().Pkg() != c.pass.Pkg || iface.NumMethods() == 0 {
		return "", "", false
	}
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if _, ok := tn.Type().Underlying().(*types.Struct); !ok {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if !types.Implements(ptr, iface) {
			continue
		}
		if f, m, ok := c.growingField(ptr); ok {
			return tn.Name() + "." + f, m, true
		}
	}
	return "", "", false
}
