package poolvet

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkKeptList reports a slice whose elements a loop puts into a pool and
// that the function still uses after the loop: it returns it, stores it
// somewhere that outlives the call, passes it on, or reads its elements.
// The slice holds the objects the pool may already have handed to someone
// else, so they have two owners (go-bond/bond#145: items kept in a free
// list and also put back). Truncating or clearing the slice, or taking its
// length, is not a use.
func (c *checker) checkKeptList(fn *ssa.Function, puts []putSite) {
	for i := range puts {
		p := &puts[i]
		if p.cond || p.deferred || p.field || p.key.cell {
			continue
		}
		ia, loop := loopElemPut(p)
		if ia == nil {
			continue // not a loop over the elements
		}
		list := ia.X
		if ph, ok := list.(*ssa.Phi); ok && loop[ph.Block()] {
			continue // a slice the loop itself changes
		}
		t := c.newTracker(fn, objKey{list, false})
		if t.fcell != nil {
			// for _, x := range r.items: later loads of r.items are the
			// list, unless the loop or the way to it stores into the field.
			t.cellValid = !clobberedBefore(t, loop)
		}
		t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
			if loop[instr.Block()] {
				return next // the loop's own reads of the next element
			}
			if !keptUse(t, instr, path) {
				return next
			}
			c.report(checkUseAfterPut, c.posOf(instr, p.instr), nil,
				"the slice whose elements the loop puts back into the pool (line %d) still holds them here: another goroutine may already own them; drop them from the slice, or do not put them",
				c.line(p.instr.Pos()))
			return stopAll
		})
	}
}

// loopElemPut returns, for a Put of an element of a slice (x[i]) inside a
// loop that loads the element, the element's address and the loop's
// blocks; nil otherwise.
func loopElemPut(p *putSite) (*ssa.IndexAddr, map[*ssa.BasicBlock]bool) {
	load, ok := p.key.v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	ia, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return nil, nil
	}
	if _, isSlice := ia.X.Type().Underlying().(*types.Slice); !isSlice {
		return nil, nil
	}
	loop := loopOf(p.instr.Block())
	if loop == nil || !loop[ia.Block()] {
		return nil, nil
	}
	return ia, loop
}

// keptUse reports whether instr uses the slice that t tracks in a way that
// reaches its elements later: a return, a store outside the function's
// locals, a call that is given it, or a load of an element.
func keptUse(t *tracker, instr ssa.Instruction, p *path) bool {
	alias := func(v ssa.Value) bool {
		if sl, ok := v.(*ssa.Slice); ok && sl.High != nil && isZeroConst(sl.High) {
			return false // items[:0]: the elements are out of reach
		}
		return v != nil && t.class(p, v) != notAlias
	}
	switch x := instr.(type) {
	case *ssa.Return:
		for _, r := range x.Results {
			if alias(storedResult(r)) {
				return true
			}
		}
	case *ssa.Store:
		return alias(x.Val) && localRoot(x.Addr) == nil
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if ia, ok := x.X.(*ssa.IndexAddr); ok && alias(ia.X) {
				return true
			}
		}
	case ssa.CallInstruction:
		com := x.Common()
		if b, ok := com.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap", "clear":
				return false
			}
		}
		for _, a := range com.Args {
			if alias(a) {
				return true
			}
		}
	}
	return false
}

// loopOf returns the blocks of the innermost cycle through b: those that
// b reaches and that reach b. It is nil if b is in no loop.
func loopOf(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	reach := func(from *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
		seen := map[*ssa.BasicBlock]bool{}
		work := []*ssa.BasicBlock{from}
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, s := range next(x) {
				if !seen[s] {
					seen[s] = true
					work = append(work, s)
				}
			}
		}
		return seen
	}
	fwd := reach(b, func(x *ssa.BasicBlock) []*ssa.BasicBlock { return x.Succs })
	if !fwd[b] {
		return nil
	}
	back := reach(b, func(x *ssa.BasicBlock) []*ssa.BasicBlock { return x.Preds })
	loop := map[*ssa.BasicBlock]bool{}
	for x := range fwd {
		if back[x] {
			loop[x] = true
		}
	}
	return loop
}

// clobberedBefore reports whether an instruction of the loop, or one after
// the list's load in its block, may store into the field the list was
// loaded from.
func clobberedBefore(t *tracker, loop map[*ssa.BasicBlock]bool) bool {
	list := t.key.v.(ssa.Instruction)
	if !loop[list.Block()] { // in the loop, the scan below covers it
		seen := false
		for _, instr := range list.Block().Instrs {
			if seen && t.clobbers(instr) {
				return true
			}
			seen = seen || instr == list
		}
	}
	for b := range loop {
		for _, instr := range b.Instrs {
			if t.clobbers(instr) {
				return true
			}
		}
	}
	return false
}
