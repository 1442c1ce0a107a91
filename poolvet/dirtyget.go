package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Getters that hand out dirty bytes unlike the package's others: a byte
// pool's getter that clears what it took (clear(b[:cap(b)])) says the
// package promises zeroed buffers; another getter of a *[]byte pool that
// returns what it took without clearing breaks that promise
// (grpc/grpc-go#8670: the tiered pool's fallback for odd sizes).

// byteGetter reports whether fn is a getter of a *[]byte sync.Pool: it
// returns, on some path, what a Get in it returned; the Get's site and
// whether fn clears that buffer first.
func (c *checker) byteGetter(fn *ssa.Function) (ret *ssa.Return, clears bool, ok bool) {
	_, gets := c.sites(fn)
	for _, g := range gets {
		if g.prim != syncGet {
			continue
		}
		al := c.aliasesOf(fn, objKey{g.call, false}, true)
		var r *ssa.Return
		for _, b := range fn.Blocks {
			if x, isRet := lastInstr(b).(*ssa.Return); isRet && len(x.Results) > 0 && al[x.Results[0]] && isPtrToByteSlice(x.Results[0].Type()) {
				r = x
			}
		}
		if r == nil {
			continue
		}
		cl := false
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(*ssa.Call)
				if !isCall || !isClearBuiltin(&call.Call) || len(call.Call.Args) != 1 {
					continue
				}
				if al[clearedBase(call.Call.Args[0])] || al[call.Call.Args[0]] {
					cl = true
				}
			}
		}
		return r, cl, true
	}
	return nil, false, false
}

// checkDirtyGetter reports, in a getter of a *[]byte pool that does not
// clear, the return that hands the buffer out, when another getter of the
// package clears its buffers.
func (c *checker) checkDirtyGetter(fn *ssa.Function) {
	if !*enabled[checkNoReset] {
		return
	}
	ret, clears, ok := c.byteGetter(fn)
	if !ok || clears {
		return
	}
	if !c.clearingGetterDone {
		c.clearingGetterDone = true
		for _, other := range c.funcs {
			if _, oc, ok := c.byteGetter(other); ok && oc {
				c.clearingGetter = other
				break
			}
		}
	}
	if other := c.clearingGetter; other != nil && other != fn {
		c.report(checkNoReset, ret.Pos(), nil,
			"%s hands out a pooled buffer with the previous user's bytes, while %s clears the buffers it hands out: callers that rely on that get stale data here; clear it before returning it",
			methodName(fn), methodName(other))
	}
}

// methodName names fn for a message, with its receiver type:
// (*simpleBufferPool).Get.
func methodName(fn *ssa.Function) string {
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), types.RelativeTo(fn.Pkg.Pkg)) + ")." + fn.Name()
	}
	return displayName(fn)
}

// isPtrToByteSlice reports whether t is *[]byte.
func isPtrToByteSlice(t types.Type) bool {
	return isPointer(t) && isByteSlice(derefType(t))
}
