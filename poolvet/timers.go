package poolvet

import (
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/ssa"
)

// Pooled timers. Before Go 1.23 a *time.Timer's channel has a buffer of
// one: a timer armed with Reset that fires, or is left armed, after its
// last receive keeps a tick in C, and Stop does not take it out. Put back
// like that, the timer hands the next user an expiry it never asked for:
// its select on C fires at once (hashicorp/yamux f21aae5; cloudwego/kitex
// #1858). Since Go 1.23 (a go.mod at 1.23 or later) Stop and Reset discard
// a pending tick, so the rule is off there.
//
// checkArmedTimers reports, in fn, a Put of a *time.Timer that fn got from
// a sync.Pool and armed with Reset, when no drain of C (a receive, in an
// if !t.Stop() or a select with a default) runs between the arming and
// the Put: a Put after the drain in fn, or, for a Put in a deferred
// closure, a drain earlier in that closure.
func (c *checker) checkArmedTimers(fn *ssa.Function, gets []getSite) {
	if v := c.pass.Pkg.GoVersion(); v != "" && version.Compare(v, "go1.23") >= 0 {
		return
	}
	if !armsTimer(fn) {
		return // no Reset of a timer here: nothing to follow
	}
	for _, g := range gets {
		if g.prim != syncGet {
			continue
		}
		al := c.aliasesOf(fn, objKey{g.call, false}, true)
		isTimer := false
		for v := range al {
			if isTimerPtr(v.Type()) {
				isTimer = true
			}
		}
		if !isTimer {
			continue
		}
		var arms []ssa.Instruction
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && timerMethod(&call.Call, "Reset") && al[call.Call.Args[0]] {
					arms = append(arms, call)
				}
			}
		}
		if len(arms) == 0 {
			continue
		}
		c.reportArmedPuts(fn, al, arms)
	}
}

// armsTimer reports whether fn calls (*time.Timer).Reset.
func armsTimer(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && timerMethod(&call.Call, "Reset") {
				return true
			}
		}
	}
	return false
}

// reportArmedPuts reports the Puts of the timer (al: its aliases in fn)
// that can run after one of arms with no drain on the way.
func (c *checker) reportArmedPuts(fn *ssa.Function, al map[ssa.Value]bool, arms []ssa.Instruction) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			if c.isSyncPut(com) && putsAlias(com.Args[len(com.Args)-1], al) {
				if _, deferred := ci.(*ssa.Defer); deferred || armedReaches(arms, ci, func(v ssa.Value) bool { return al[v] }) {
					c.reportArmedTimer(ci.Pos())
					return
				}
				continue
			}
			d, ok := ci.(*ssa.Defer)
			if !ok {
				continue
			}
			mc, ok := d.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			body, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			// The closure's variables bound to the timer.
			bound := map[ssa.Value]bool{}
			for i, bv := range mc.Bindings {
				if i < len(body.FreeVars) && al[bv] {
					bound[body.FreeVars[i]] = true
					for _, ld := range loadsOf(body, body.FreeVars[i]) {
						bound[ld] = true
					}
				}
			}
			if len(bound) == 0 {
				continue
			}
			inner := c.aliasSet(body, bound)
			innerDrains := timerDrains(body, func(v ssa.Value) bool { return inner[v] })
			for _, ib := range body.Blocks {
				for _, in := range ib.Instrs {
					ic, ok := in.(ssa.CallInstruction)
					if !ok {
						continue
					}
					icom := ic.Common()
					if !c.isSyncPut(icom) || !putsAlias(icom.Args[len(icom.Args)-1], inner) {
						continue
					}
					// A drain on the way to the Put, on the paths where the
					// closure judged one needed.
					drained := false
					for _, dr := range innerDrains {
						if reachableFrom(dr, ic) {
							drained = true
						}
					}
					if !drained {
						c.reportArmedTimer(ic.Pos())
						return
					}
				}
			}
		}
	}
}

// isSyncPut reports whether com is a sync.Pool Put with its argument.
func (c *checker) isSyncPut(com *ssa.CallCommon) bool {
	ce, ok := c.calleeOf(com)
	return ok && ce.prim == syncPut && len(com.Args) > 0
}

func (c *checker) reportArmedTimer(pos token.Pos) {
	c.report(checkNoReset, pos, nil,
		"the *time.Timer goes back to the pool after Reset armed it, with no drain of its channel first: before Go 1.23 a tick left in C (it fired, or fires later) reaches the next user, whose wait on C returns at once; stop and drain it before the Put (if !t.Stop() { <-t.C }), or build with go 1.23 or later")
}

// aliasSet is aliasesOf for each value of seeds, merged.
func (c *checker) aliasSet(fn *ssa.Function, seeds map[ssa.Value]bool) map[ssa.Value]bool {
	out := map[ssa.Value]bool{}
	for v := range seeds {
		out[v] = true
		for a := range c.aliasesOf(fn, objKey{v, false}, true) {
			out[a] = true
		}
	}
	return out
}

// putsAlias reports whether arg, as passed to a Put, is one of al: the
// value, or the interface made of it.
func putsAlias(arg ssa.Value, al map[ssa.Value]bool) bool {
	if mi, ok := arg.(*ssa.MakeInterface); ok && al[mi.X] {
		return true
	}
	return al[arg]
}

// armedReaches reports whether put can be reached from one of arms on a
// path where the timer (is: its aliases) may still hold a tick: none of a
// receive from its channel C (a select's case on C taken, or <-t.C), nor
// the branch where its Stop returned true (it had not fired), on the way.
func armedReaches(arms []ssa.Instruction, put ssa.Instruction, is func(ssa.Value) bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var work []*ssa.BasicBlock
	// The rest of an arm's block, then its successors.
	follow := func(b *ssa.BasicBlock, from int) bool {
		for _, instr := range b.Instrs[from:] {
			if instr == put {
				return true
			}
			if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.ARROW && timerChan(u.X, is) {
				return false
			}
		}
		for _, succ := range cleanSuccs(b, is) {
			if !seen[succ] {
				seen[succ] = true
				work = append(work, succ)
			}
		}
		return false
	}
	for _, a := range arms {
		b := a.Block()
		idx := 0
		for i, instr := range b.Instrs {
			if instr == a {
				idx = i + 1
			}
		}
		if follow(b, idx) {
			return true
		}
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if follow(b, 0) {
			return true
		}
	}
	return false
}

// cleanSuccs returns the successors of b on which the timer may still
// hold a tick: not the case of a select that received from C, nor the
// branch where Stop returned true.
func cleanSuccs(b *ssa.BasicBlock, is func(ssa.Value) bool) []*ssa.BasicBlock {
	ifi, ok := lastInstr(b).(*ssa.If)
	if !ok || len(b.Succs) != 2 {
		return b.Succs
	}
	if sel, k, ok := selectCase(ifi.Cond); ok && k >= 0 && k < len(sel.States) {
		if st := sel.States[k]; st.Dir == types.RecvOnly && timerChan(st.Chan, is) {
			return b.Succs[1:] // the case that received the tick is clean
		}
		return b.Succs
	}
	if _, failed, ok := stopBranches(b, is); ok {
		return []*ssa.BasicBlock{failed} // the tick may be left where Stop returned false
	}
	return b.Succs
}

// stopBranches returns, when b ends in an if on the result of the timer's
// Stop (if t.Stop(), if !t.Stop()), the successor taken when Stop returned
// true (the timer had not fired) and the one taken when it returned false.
func stopBranches(b *ssa.BasicBlock, is func(ssa.Value) bool) (stopped, failed *ssa.BasicBlock, ok bool) {
	ifi, isIf := lastInstr(b).(*ssa.If)
	if !isIf || len(b.Succs) != 2 {
		return nil, nil, false
	}
	cond, t := ifi.Cond, 0 // the index of the successor where Stop returned true
	if not, isNot := cond.(*ssa.UnOp); isNot && not.Op == token.NOT {
		cond, t = not.X, 1
	}
	call, isCall := cond.(*ssa.Call)
	if !isCall || !timerMethod(&call.Call, "Stop") || !is(call.Call.Args[0]) {
		return nil, nil, false
	}
	return b.Succs[t], b.Succs[1-t], true
}

// timerChan reports whether ch is a load of the channel C of the timer.
func timerChan(ch ssa.Value, is func(ssa.Value) bool) bool {
	ld, ok := ch.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	return ok && is(fa.X) && fa.Field == 0 && isTimerPtr(fa.X.Type())
}

// timerDrains returns the receives from the channel C of a timer (is: its
// aliases) in fn that take a pending tick out: a receive in a block that
// is entered when Stop returned false (if !t.Stop() { <-t.C }), or the
// receiving case of a select with a default.
func timerDrains(fn *ssa.Function, is func(ssa.Value) bool) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.UnOp:
				if x.Op == token.ARROW && timerChan(x.X, is) && afterFailedStop(b, is) {
					out = append(out, x)
				}
			case *ssa.Select:
				if x.Blocking {
					continue
				}
				for _, st := range x.States {
					if st.Dir == types.RecvOnly && timerChan(st.Chan, is) {
						out = append(out, x)
					}
				}
			}
		}
	}
	return out
}

// afterFailedStop reports whether b is entered only when a Stop of the
// timer returned false: a close dominator ends in an if on that result
// whose failed side dominates b.
func afterFailedStop(b *ssa.BasicBlock, is func(ssa.Value) bool) bool {
	// Through further tests after the failed Stop (if !t.Stop() &&
	// !timeout { <-t.C }: juicefs 7f5fb9a skips the drain when the wait
	// already took the tick), a few dominators up.
	for d, i := b.Idom(), 0; d != nil && i < 3; d, i = d.Idom(), i+1 {
		if _, failed, ok := stopBranches(d, is); ok {
			return failed.Dominates(b)
		}
	}
	return false
}

// timerMethod reports whether com calls (*time.Timer).name.
func timerMethod(com *ssa.CallCommon, name string) bool {
	callee := com.StaticCallee()
	return callee != nil && callee.Name() == name && len(com.Args) > 0 && isTimerPtr(com.Args[0].Type()) && callee.Signature.Recv() != nil
}

// isTimerPtr reports whether t is *time.Timer.
func isTimerPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Timer"
}
