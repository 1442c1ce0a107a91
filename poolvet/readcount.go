package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkReadCountIgnored reports a pooled buffer that a Read fills and that
// is then used past what the Read returned: n, err := r.Read(buf), with n
// only compared with zero, then parse(buf[2:]). A buffer from a pool still
// holds its previous user's bytes beyond n, and they are parsed as this
// one's (AdguardTeam/dnsproxy#484: stale DNS answers after a short read).
// Reported at the call given the whole buffer.
func (c *checker) checkReadCountIgnored(fn *ssa.Function, gets []getSite) {
	if !*enabled[checkNoReset] {
		return
	}
	for _, g := range gets {
		for _, buf := range pooledByteSlices(g.call) {
			c.readCountIgnored(fn, buf)
		}
	}
}

// pooledByteSlices returns the []byte values a Get's result gives: the
// asserted slice, or the load of an asserted *[]byte.
func pooledByteSlices(call *ssa.Call) []ssa.Value {
	var out []ssa.Value
	for _, ref := range *call.Referrers() {
		ta, ok := ref.(*ssa.TypeAssert)
		if !ok || ta.CommaOk {
			continue
		}
		if isByteSlice(ta.Type()) {
			out = append(out, ta)
			continue
		}
		if ptr, ok := ta.Type().Underlying().(*types.Pointer); ok && isByteSlice(ptr.Elem()) {
			for _, r := range *ta.Referrers() {
				if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
					out = append(out, ld)
				}
			}
		}
	}
	return out
}

// readCountIgnored reports, for the pooled slice buf, a Read into all of
// buf whose count is only compared with zero, followed by a call given buf
// or buf[k:] (not cut at the count).
func (c *checker) readCountIgnored(fn *ssa.Function, buf ssa.Value) {
	for _, ref := range *buf.Referrers() {
		read, ok := ref.(*ssa.Call)
		if !ok || !isReadCall(&read.Call) || len(read.Call.Args) == 0 || read.Call.Args[len(read.Call.Args)-1] != buf {
			continue
		}
		if countUsed(read) {
			continue
		}
		for _, ref2 := range *buf.Referrers() {
			var whole ssa.Value = buf
			if sl, ok := ref2.(*ssa.Slice); ok && sl.High == nil {
				whole = sl
			} else if ref2 == ssa.Instruction(read) {
				continue
			}
			for _, use := range referrersOf(whole) {
				call, ok := use.(*ssa.Call)
				if !ok || call == read || !reachableFrom(read, call) || isBuiltin(&call.Call, "len") || isBuiltin(&call.Call, "cap") {
					continue
				}
				c.report(checkNoReset, call.Pos(), nil,
					"the pooled buffer is used here past the count that the Read at line %d returned: beyond it, it still holds the bytes of its previous user, which are taken for this one's; use buf[:n], or io.ReadFull",
					c.line(read.Pos()))
				return
			}
		}
	}
}

// referrersOf returns v's referrers, or none.
func referrersOf(v ssa.Value) []ssa.Instruction {
	if refs := v.Referrers(); refs != nil {
		return *refs
	}
	return nil
}

// isReadCall reports whether com is a method call Read(p []byte) (int,
// error).
func isReadCall(com *ssa.CallCommon) bool {
	var sig *types.Signature
	switch {
	case com.IsInvoke():
		if com.Method.Name() != "Read" {
			return false
		}
		sig, _ = com.Method.Type().(*types.Signature)
	default:
		callee := com.StaticCallee()
		if callee == nil || callee.Name() != "Read" || callee.Signature.Recv() == nil {
			return false
		}
		sig = callee.Signature
	}
	return sig != nil && sig.Params().Len() == 1 && isByteSlice(sig.Params().At(0).Type()) && sig.Results().Len() == 2
}

// countUsed reports whether the count a Read returns is used for more than
// a comparison with zero.
func countUsed(read *ssa.Call) bool {
	for _, ref := range *read.Referrers() {
		ex, ok := ref.(*ssa.Extract)
		if !ok || ex.Index != 0 {
			continue
		}
		for _, u := range referrersOf(ex) {
			bin, ok := u.(*ssa.BinOp)
			if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ && bin.Op != token.GTR && bin.Op != token.LEQ) {
				return true
			}
			other := bin.Y
			if other == ssa.Value(ex) {
				other = bin.X
			}
			if n, ok := constInt(other); !ok || n != 0 {
				return true
			}
		}
	}
	return false
}
