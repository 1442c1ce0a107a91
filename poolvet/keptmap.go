package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Slices kept in a map by a callee: a handler given a slice of a pooled
// request buffer stores it in a long-lived map (entry.Extended[name] =
// data) and returns; its caller puts the buffer back, and the next request
// read into it rewrites what the map holds (seaweedfs/seaweedfs#9278,
// through go-fuse's RawFileSystem interface).

// recordKeepsAt notes in s the []byte parameters (not the receiver) that fn
// stores, or an alias of, as a value or key of a map it did not make, or
// passes to a function that does, with where that store is.
func (c *checker) recordKeepsAt(s *summary, fn *ssa.Function) {
	for i, prm := range fn.Params {
		if isReceiver(prm) {
			continue
		}
		// Bytes, pointers and interfaces: the elements of other slices (a
		// decoded series' labels) are memory of their own, not the pooled
		// buffer's. A pointer or interface kept is the object itself
		// (prometheus/prometheus#18238: the chunk mapper keeps the chunk
		// its caller then releases to the chunk pool).
		// A string counts as bytes do: it is pooled memory only when
		// made over a pooled buffer without a copy (bun's unsafe
		// String(b), uptrace/bun#36).
		if t := prm.Type(); !isByteSlice(t) && !isString(t) && !isPointer(t) && !types.IsInterface(t) {
			continue
		}
		// A pointer counts only when it is kept on every path that
		// returns: a subscription a delivery path keeps only for
		// auto-unsubscribe, which its pooling caller turns off
		// (nats-server's gateway), is not kept.
		if pos := c.keptInMap(fn, prm, !isByteSlice(prm.Type()) && !isString(prm.Type())); pos.IsValid() {
			if s.keepsAt == nil {
				s.keepsAt = map[int]token.Pos{}
			}
			s.keepsAt[i] = pos
		}
	}
}

// keptInMap returns where fn keeps prm, or an alias of it, in a map that
// fn did not make, directly or through a callee's keepsAt; or NoPos. With
// sure, only where that happens on every path to a return.
func (c *checker) keptInMap(fn *ssa.Function, prm *ssa.Parameter, sure bool) token.Pos {
	al := c.aliasesOf(fn, objKey{prm, false}, false)
	for _, b := range fn.Blocks {
		if sure && !onEveryReturn(fn, b) {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.MapUpdate:
				if !al[x.Value] && !al[x.Key] {
					continue
				}
				if _, fresh := x.Map.(*ssa.MakeMap); fresh || deletesFrom(fn, x.Map) {
					continue
				}
				return x.Pos()
			case ssa.CallInstruction:
				if pos := c.keptByCallee(x.Common(), func(v ssa.Value) bool { return al[v] }); pos.IsValid() {
					return pos
				}
			}
		}
	}
	return token.NoPos
}

// onEveryReturn reports whether b dominates every block of fn that
// returns.
func onEveryReturn(fn *ssa.Function, b *ssa.BasicBlock) bool {
	any := false
	for _, r := range fn.Blocks {
		if _, ok := lastInstr(r).(*ssa.Return); ok {
			if !b.Dominates(r) {
				return false
			}
			any = true
		}
	}
	return any
}

// keptByCallee returns where the callee of com keeps in a map one of its
// arguments that alias reports as an alias of the object (keepsAt), or
// NoPos. An interface call counts when one of the package's implementations
// keeps it.
func (c *checker) keptByCallee(com *ssa.CallCommon, alias func(ssa.Value) bool) token.Pos {
	if com.IsInvoke() {
		n, ok := types.Unalias(com.Value.Type()).(*types.Named)
		if !ok || n.Obj().Pkg() != c.pass.Pkg {
			return token.NoPos
		}
		for _, impl := range c.implsOf(n, com.Method.Name()) {
			s := c.sums[impl]
			if s == nil {
				continue
			}
			for i, a := range com.Args {
				// The method's parameters count its receiver first.
				if pos, ok := s.keepsAt[i+1]; ok && alias(a) {
					return pos
				}
			}
		}
		return token.NoPos
	}
	ce, ok := c.calleeOf(com)
	if !ok || ce.sum == nil || len(ce.sum.keepsAt) == 0 {
		return token.NoPos
	}
	for i, a := range callArgs(com) {
		if pos, ok := ce.sum.keepsAt[i]; ok && alias(a) {
			return pos
		}
	}
	return token.NoPos
}

// tupleViews returns the results of fn, after the first, that share memory
// with result 0 on every return where result 0 is not nil: a read helper
// that returns the pooled buffer and the slice of it that holds the
// request (go-fuse's readRequest).
func (c *checker) tupleViews(fn *ssa.Function) map[int]bool {
	res := fn.Signature.Results()
	if res.Len() < 2 || !pointerLike(res.At(0).Type()) {
		return nil
	}
	var out map[int]bool
	for k := 1; k < res.Len(); k++ {
		if !sharesBacking(res.At(k).Type()) {
			continue
		}
		all, any := true, false
		for _, b := range fn.Blocks {
			ret, ok := lastInstr(b).(*ssa.Return)
			if !ok || len(ret.Results) != res.Len() || isNil(ret.Results[0]) {
				continue
			}
			if c.aliasesOf(fn, objKey{ret.Results[0], false}, false)[ret.Results[k]] {
				any = true
			} else {
				all = false
			}
		}
		if all && any {
			if out == nil {
				out = map[int]bool{}
			}
			out[k] = true
		}
	}
	return out
}
