package poolvet

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// checkReceiverViewKept reports, in a method of a type whose objects the
// package puts into a sync.Pool, a string or slice sharing the memory of
// the receiver (an unsafe string over its key buffer) handed to memory
// that outlives the call: a map or cache field of another object, or a
// package-level variable. The object goes back to the pool when its user is
// done, and the next user rewrites the buffer under the kept view
// (VictoriaMetrics 6ebb533: a cache key that was
// bytesutil.ToUnsafeString(is.kb.B)).
func (c *checker) checkReceiverViewKept(fn *ssa.Function) {
	if !*enabled[checkUseAfterPut] || fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return
	}
	recv := fn.Params[0]
	n, ok := namedPtr(recv.Type())
	if !ok || !c.pooledPtrTypes()[n.Obj()] {
		return
	}
	t := c.newTracker(fn, objKey{recv, false})
	none := &path{clobbered: true}
	view := func(v ssa.Value) bool {
		return v != nil && (isString(v.Type()) || sharesBacking(v.Type())) && t.class(none, v) != notAlias && ownBuffer(v, recv)
	}
	for _, h := range c.handOffs(fn, t) {
		// A struct returned to the caller with a view of the receiver
		// is an accessor's result, the caller's to copy or not.
		if !h.store || h.keptAt.IsValid() || h.returned {
			continue
		}
		var vals []ssa.Value
		switch x := h.instr.(type) {
		case *ssa.Call:
			vals = callArgs(&x.Call)
		case *ssa.MapUpdate:
			vals = []ssa.Value{x.Key, x.Value}
		case *ssa.Store:
			vals = []ssa.Value{x.Val}
		}
		for _, v := range vals {
			if view(v) {
				c.report(checkUseAfterPut, h.pos(), nil,
					"a view of %s's memory (a string or slice over its buffer) goes to %s, but %s is of a type the package puts into a pool: once it is back there, the next user rewrites that memory under the kept view; keep a copy instead",
					recv.Name(), h.to, recv.Name())
				return
			}
		}
	}
}

// ownBuffer reports whether v is, through slicing, conversions and calls on
// it (unsafe.String, a ToUnsafeString helper), a []byte field of recv or of
// a struct recv holds by value (is.kb.B): the object's own buffer, which its
// next user rewrites. Elements of a slice field and fields behind pointers
// are memory the object only refers to.
func ownBuffer(v, recv ssa.Value) bool {
	for i := 0; i < 8 && v != nil; i++ {
		switch x := v.(type) {
		case *ssa.Slice:
			v = x.X
		case *ssa.Convert:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Call:
			args := callArgs(&x.Call)
			if len(args) == 0 {
				return false
			}
			v = args[0]
		case *ssa.UnOp:
			fa, ok := x.X.(*ssa.FieldAddr)
			if x.Op != token.MUL || !ok || !isByteSlice(x.Type()) {
				return false
			}
			base := fa.X
			for {
				inner, ok := base.(*ssa.FieldAddr)
				if !ok {
					break
				}
				base = inner.X
			}
			return base == recv
		default:
			return false
		}
	}
	return false
}
