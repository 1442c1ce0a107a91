package poolvet

import (
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
// themselves (they own it; goHandsOff), and functions that wait for the
// goroutine on every path to a return (returnsAfterHandOff).
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
		t := c.newTracker(fn, objKey{prm, false})
		for _, h := range c.handOffs(fn, t) {
			if _, ok := h.instr.(*ssa.Go); !ok {
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
			if n, ok := namedPtr(arg.Type()); ok && n.Obj().Pkg() == c.pass.Pkg {
				c.pooledPtrSet[n.Obj()] = true
			}
		}
	}
	return c.pooledPtrSet
}
