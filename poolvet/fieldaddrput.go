package poolvet

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// checkFieldAddrPut reports a read or a write of a struct field after the
// field's address went into a pool (pool.Put(&sw.buf); sw.buf = nil): the
// pooled object is the field itself, so clearing the field afterwards, the
// usual tidy-up after a Put of a pointer it holds, writes into an object the
// pool may already have handed to another user (coder/websocket a02cbef:
// the next connection got back a nil window).
func (c *checker) checkFieldAddrPut(fn *ssa.Function, puts []putSite) {
	if !*enabled[checkUseAfterPut] {
		return
	}
	for i := range puts {
		p := &puts[i]
		fa, ok := p.key.v.(*ssa.FieldAddr)
		if !ok || p.key.cell || p.cond || p.deferred || p.field {
			continue
		}
		// The instructions that compute the field's address: a path that
		// runs one again (the next iteration of a loop over objects) is
		// about another object.
		defs := map[ssa.Instruction]bool{}
		for v, d := ssa.Value(fa), 0; v != nil && d < 6; d++ {
			instr, ok := v.(ssa.Instruction)
			if !ok {
				break
			}
			defs[instr] = true
			switch x := v.(type) {
			case *ssa.FieldAddr:
				v = x.X
			case *ssa.UnOp:
				v = x.X
			case *ssa.IndexAddr:
				v = x.X
			default:
				v = nil
			}
		}
		c.newTracker(fn, p.key).walk(p.instr, func(instr ssa.Instruction, _ *path) action {
			if defs[instr] {
				return stopPath
			}
			var addr ssa.Value
			what := "read"
			switch x := instr.(type) {
			case *ssa.Store:
				addr, what = x.Addr, "written"
			case *ssa.UnOp:
				if x.Op == token.MUL {
					addr = x.X
				}
			}
			if addr == nil || !sameAddr(addr, fa, 0) {
				return next
			}
			c.report(checkUseAfterPut, instr.Pos(), nil,
				"field %s is %s here, but its address went into the pool at line %d: the pooled object is this field, which another user may already have got; put a copy, or a pointer the struct does not hold, or do not touch the field after the Put",
				fieldName(fa), what, c.line(p.instr.Pos()))
			return stopAll
		})
	}
}
