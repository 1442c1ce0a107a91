package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A pool reached through an interface of the package (a BufferPool with
// Get() any and Put(any), a field a user sets): the package's code
// asserts what its Get returns to the type it puts, while a *sync.Pool of
// the package stored in that interface has a New that returns another
// type (gorilla/websocket#953: a WriteBufferPool whose New made []byte,
// asserted to writePoolData, so every fallback to New was thrown away).
// Judged only when every value the package converts to the interface is
// a package-level sync.Pool with a New.

// ifacePools returns, for each named interface type with a Get method,
// the package-level sync.Pools the package converts to it; an interface
// the package also converts anything else to maps to nil.
func (c *checker) ifacePools() map[*types.TypeName][]*ssa.Global {
	if c.ifaceGlobals != nil {
		return c.ifaceGlobals
	}
	c.ifaceGlobals = map[*types.TypeName][]*ssa.Global{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mi, ok := instr.(*ssa.MakeInterface)
				if !ok {
					continue
				}
				n, ok := types.Unalias(mi.Type()).(*types.Named)
				if !ok || n.Obj().Pkg() != c.pass.Pkg {
					continue
				}
				if obj, _, _ := types.LookupFieldOrMethod(n, false, c.pass.Pkg, "Get"); obj == nil {
					continue
				}
				pools, seen := c.ifaceGlobals[n.Obj()]
				if seen && pools == nil {
					continue
				}
				// &pool for var pool sync.Pool, or pool for var pool = &sync.Pool{}
				g := globalOf(mi.X)
				if g == nil || !(mi.X == g && isSyncPoolPtr(g.Type()) || mi.X != g && isSyncPoolPtr(derefType(g.Type()))) {
					c.ifaceGlobals[n.Obj()] = nil
					continue
				}
				c.ifaceGlobals[n.Obj()] = append(pools, g)
			}
		}
	}
	return c.ifaceGlobals
}

// checkIfaceGetType reports an assertion of what a Get through such an
// interface returns, to a type a pool stored in it never makes.
func (c *checker) checkIfaceGetType(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !call.Call.IsInvoke() || call.Call.Method.Name() != "Get" || len(call.Call.Args) != 0 {
				continue
			}
			n, ok := types.Unalias(call.Call.Value.Type()).(*types.Named)
			if !ok {
				continue
			}
			pools := c.ifacePools()[n.Obj()]
			if len(pools) == 0 {
				continue
			}
			recv := "the pool"
			if ce := c.callExpr(call.Call.Pos()); ce != nil {
				if x, ok := selectorBase(ce.Fun); ok {
					recv = x
				}
			}
			for _, ref := range *call.Referrers() {
				ta, ok := ref.(*ssa.TypeAssert)
				if !ok || containsTypeParam(ta.AssertedType) {
					continue
				}
				for _, g := range pools {
					news, _, ok := c.newTypesOf(c.hooks[g]["New"])
					if !ok || len(news) == 0 || matchesAny(ta.AssertedType, news) {
						continue
					}
					c.report(checkTypeMismatch, ta.Pos(), nil,
						"%s.Get() is asserted to %s, but %s, the sync.Pool the package keeps in that %s, has a New that returns %s: the assertion fails whenever Get falls back to New",
						recv, c.typeString(ta.AssertedType), g.Name(), n.Obj().Name(), c.typeString(news[0]))
					break
				}
			}
		}
	}
}
