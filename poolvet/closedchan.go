package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkClosedChanPut reports the Put p of a channel that fn, or a closure
// it makes (however deeply nested), closes: a closed channel cannot be
// used again, and the next user of the pool receives at once from it or
// panics sending on it (fyne-io/fyne 6369f2a's done channels).
func (c *checker) checkClosedChanPut(fn *ssa.Function, p *putSite) {
	if !*enabled[checkNoReset] || p.field {
		return
	}
	t := p.key.v.Type()
	if p.key.cell {
		t = derefType(t) // a variable captured by a closure: its cell
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return
	}
	if pos, ok := closesChan(fn, map[ssa.Value]bool{p.key.v: true}, 0); ok {
		c.report(checkNoReset, p.instr.Pos(), nil,
			"%s goes back to the pool closed (closed at line %d): the next user of the pool receives from it at once, or panics sending on it; put back only channels that are still open, or do not pool this one",
			c.objName(p), c.line(pos))
	}
}

// closesChan reports whether fn, or a closure it makes that captures one
// of the values in al, calls close on one of them, and where.
func closesChan(fn *ssa.Function, al map[ssa.Value]bool, depth int) (pos token.Pos, ok bool) {
	if depth > 4 {
		return token.NoPos, false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if isBuiltin(&x.Call, "close") && len(x.Call.Args) == 1 {
					a := x.Call.Args[0]
					if ld, ok := a.(*ssa.UnOp); ok && ld.Op == token.MUL && al[ld.X] {
						a = ld.X // close(ch) of a captured variable: a load of its cell
					}
					if al[a] {
						return x.Pos(), true
					}
				}
			case *ssa.MakeClosure:
				g, isFn := x.Fn.(*ssa.Function)
				if !isFn {
					continue
				}
				inner := map[ssa.Value]bool{}
				for i, bnd := range x.Bindings {
					if al[bnd] && i < len(g.FreeVars) {
						inner[g.FreeVars[i]] = true
					}
				}
				if len(inner) > 0 {
					if pos, ok := closesChan(g, inner, depth+1); ok {
						return pos, true
					}
				}
			}
		}
	}
	return token.NoPos, false
}

// checkUndrainedChanPut reports the Put p into a sync.Pool of a channel
// of a queue type (a chan T the package makes only with a buffer of two
// or more) when nothing in the package ever drains a chan T (a receive in
// a select with a default case, or len of one): elements the last user
// sent and nobody received stay in the channel, and the next user of the
// pool receives them (daeuniverse/dae 2cf697d: a UDP task queue's
// channel came back with another connection's tasks in it).
func (c *checker) checkUndrainedChanPut(fn *ssa.Function, p *putSite) {
	if !*enabled[checkNoReset] || p.field || p.prim != syncPut {
		return
	}
	v := p.arg
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if v == nil {
		return
	}
	ch, ok := v.Type().Underlying().(*types.Chan)
	if !ok || ch.Dir() != types.SendRecv || !c.queueChan(v.Type()) || c.drainedChan(v.Type()) {
		return
	}
	c.report(checkNoReset, p.instr.Pos(), nil,
		"%s goes back to the pool without being drained, and nothing in the package ever drains a %s: what the last user sent and nobody received stays in its buffer, and the next user of the pool receives it; empty it before the Put (for len(ch) > 0 { <-ch }, or a select with a default case in a loop)",
		c.objName(p), c.typeString(v.Type()))
}

// queueChan reports whether the package makes channels of type t, and
// only with a constant buffer of two or more.
func (c *checker) queueChan(t types.Type) bool {
	made := false
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mc, ok := instr.(*ssa.MakeChan)
				if !ok || !types.Identical(mc.Type(), t) {
					continue
				}
				if n, ok := constInt(mc.Size); !ok || n < 2 {
					return false
				}
				made = true
			}
		}
	}
	return made
}

// drainedChan reports whether a function of the package receives from a
// chan of type t in a select with a default case, or takes its len.
func (c *checker) drainedChan(t types.Type) bool {
	for _, fn := range c.funcs {
		drained := false
		eachNonBlocking(fn, types.RecvOnly, func(st *ssa.SelectState) {
			if types.Identical(st.Chan.Type().Underlying(), t.Underlying()) {
				drained = true
			}
		})
		if drained {
			return true
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && isBuiltin(&call.Call, "len") && len(call.Call.Args) == 1 &&
					types.Identical(call.Call.Args[0].Type().Underlying(), t.Underlying()) {
					return true
				}
			}
		}
	}
	return false
}
