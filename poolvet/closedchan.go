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
