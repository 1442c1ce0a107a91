package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A reset that sets a field another method computes a cache from, but
// not the cache: the method fills the cache only while it is nil
// (if x.query == nil { x.query = parse(x.raw) }), so after the reset the
// next user of the pooled object reads what was computed from the
// previous user's state (labstack/echo#409: URL.reset replaced the
// *url.URL and kept the parsed query). A lazily made value that reads
// nothing of the receiver (a scratch buffer) is not a cache of its state,
// a cache computed only from fields the reset leaves alone stays valid,
// and an error field kept while nil is a latch of the last failure, not
// a cache. Reported at the reset, the place to fix.

// lazyCache is a field filled while nil by method, from the fields from.
type lazyCache struct {
	from   fieldSet
	method string
}

// lazyCaches returns the lazily filled fields of the struct type tn
// (by field index), computed from other fields of the receiver.
func (c *checker) lazyCaches(tn *types.TypeName) map[int]lazyCache {
	out := map[int]lazyCache{}
	for _, g := range c.funcs {
		if g.Signature.Recv() == nil || len(g.Params) == 0 || g.Parent() != nil || isResetName(g.Name()) {
			continue
		}
		recv := g.Params[0]
		if n, ok := namedPtr(recv.Type()); !ok || n.Obj() != tn {
			continue
		}
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != recv || fa.Field >= 64 || !nilGuarded(st, fa) {
					continue
				}
				from := c.derivedFields(recv, st.Val, 0) &^ (1 << fa.Field)
				if from == 0 {
					continue
				}
				if _, seen := out[fa.Field]; !seen {
					out[fa.Field] = lazyCache{from, g.Name()}
				}
			}
		}
	}
	return out
}

// derivedFields returns the fields of recv that v is computed from: loads
// of recv.f, and what a function of the package given recv reads of it.
func (c *checker) derivedFields(recv *ssa.Parameter, v ssa.Value, depth int) fieldSet {
	if depth > 6 {
		return 0
	}
	var out fieldSet
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if fa.X == recv {
				if fa.Field < 64 {
					out |= 1 << fa.Field
				}
				return out
			}
			return c.derivedFields(recv, fa.X, depth+1)
		}
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.FieldAddr:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.Field:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.Extract:
		return c.derivedFields(recv, x.Tuple, depth+1)
	case *ssa.Convert:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.ChangeType:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.MakeInterface:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.Slice:
		return c.derivedFields(recv, x.X, depth+1)
	case *ssa.BinOp:
		return c.derivedFields(recv, x.X, depth+1) | c.derivedFields(recv, x.Y, depth+1)
	case *ssa.Call:
		com := x.Common()
		callee := com.StaticCallee()
		for j, a := range callArgs(com) {
			if a == recv {
				if callee != nil && callee.Pkg == recv.Parent().Pkg && j < len(callee.Params) {
					out |= c.paramFieldUse(callee, j, 0).reads
				}
				continue
			}
			out |= c.derivedFields(recv, a, depth+1)
		}
	}
	return out
}

// reportLazyCache reports the reset fn of n (touched: the fields it sets
// or hands to a call) when it sets a field a lazily filled cache of n is
// computed from and leaves the cache.
func (c *checker) reportLazyCache(fn *ssa.Function, n *types.Named, st *types.Struct, touched fieldSet) bool {
	caches := c.lazyCaches(n.Obj())
	if len(caches) == 0 {
		return false
	}
	touched, ok := withCalleeWrites(fn, touched)
	if !ok {
		return false
	}
	for f := 0; f < st.NumFields() && f < 64; f++ {
		lc, ok := caches[f]
		if !ok || touched&(1<<f) != 0 || lc.from&touched == 0 || isErrorType(st.Field(f).Type()) {
			continue
		}
		var from []string
		for i := 0; i < st.NumFields() && i < 64; i++ {
			if lc.from&touched&(1<<i) != 0 {
				from = append(from, st.Field(i).Name())
			}
		}
		name := st.Field(f).Name()
		c.report(checkNoReset, fn.Pos(), nil,
			"%s sets %s of %s but not %s, which %s computes from it when %s is nil and keeps: a pooled %s answers the next user from the previous user's %s; set %s to nil here",
			fn.Name(), joinNames(from), n.Obj().Name(), name, lc.method, name, n.Obj().Name(), name, name)
		return true
	}
	return false
}
