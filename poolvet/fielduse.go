package poolvet

import (
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// checkFieldUsedAfterCallPut reports a method called on what a field holds
// after a call that may have put that object back into the pool and left
// the field holding it: c.handleWrite() closes the connection on a write
// error, which puts c.outBuffer and leaves it set, and the caller goes on
// with c.outBuffer.IsEmpty() (Allenxuxu/gev 0542677). A call whose bool
// result the caller looks at (if closed := c.handleWrite(); closed
// { return }) says whether it put; a store into the field in between
// replaces it. One report per call that puts.
func (c *checker) checkFieldUsedAfterCallPut(fn *ssa.Function) {
	if !*enabled[checkUseAfterPut] {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || saysWhetherPut(call) || call.Call.IsInvoke() {
				continue
			}
			ce, ok := c.calleeOf(&call.Call)
			if !ok || ce.sum == nil {
				continue
			}
			// The first use in the source, of any field the call puts.
			var use ssa.CallInstruction
			for at, fp := range ce.sum.fieldPutsAt(callArgs(&call.Call)) {
				if !fp.kept || strings.ContainsAny(at.path, ".[") {
					continue // one field of the argument itself
				}
				field, _ := strconv.Atoi(at.path)
				if u := fieldUseAfter(fn, call, at.base, field); u != nil && (use == nil || u.Pos() < use.Pos()) {
					use = u
				}
			}
			if use == nil {
				continue
			}
			name := "the callee"
			if g := call.Call.StaticCallee(); g != nil {
				name = g.Name()
			}
			ld := use.Common().Args[0].(*ssa.UnOp)
			c.report(checkUseAfterPut, use.Pos(), nil,
				"%s is used here, but %s (line %d) may have put it back into the pool and left it in the field: on that path this works on an object another user may own; clear the field where it is put, and have the call say whether it did",
				describeField(ld.X.(*ssa.FieldAddr)), name, c.line(call.Pos()))
		}
	}
}

// fieldUseAfter returns the first (in the source) static method call, after call, whose
// receiver is what base's field holds, loaded again after call with no
// store into the field in between; or nil.
func fieldUseAfter(fn *ssa.Function, call *ssa.Call, base ssa.Value, field int) ssa.CallInstruction {
	var stores []*ssa.Store
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.X == base && fa.Field == field {
					stores = append(stores, st)
				}
			}
		}
	}
	var first ssa.CallInstruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(*ssa.Call)
			if !ok || ci.Call.IsInvoke() || ci.Call.StaticCallee() == nil || ci.Call.StaticCallee().Signature.Recv() == nil {
				continue
			}
			if len(ci.Call.Args) == 0 || !reachesKeeping(call, ci, base) {
				continue
			}
			ld, ok := ci.Call.Args[0].(*ssa.UnOp)
			if !ok || ld.Op != token.MUL || !mayPrecede(call, ld) {
				continue
			}
			fa, ok := ld.X.(*ssa.FieldAddr)
			if !ok || fa.X != base || fa.Field != field {
				continue
			}
			replaced := false
			for _, st := range stores {
				if mayPrecede(call, st) && mayPrecede(st, ld) {
					replaced = true
				}
			}
			if !replaced && (first == nil || ci.Pos() < first.Pos()) {
				first = ci
			}
		}
	}
	return first
}

// describeField names the field at fa for a message (c.outBuffer).
func describeField(fa *ssa.FieldAddr) string {
	return fa.X.Name() + "." + fieldName(fa)
}
