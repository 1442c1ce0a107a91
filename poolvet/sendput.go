package poolvet

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// A chanKey identifies a channel by where the package keeps it: a field of
// one of its struct types (ref), or a package-level variable (g).
type chanKey struct {
	ref fieldRef
	g   *ssa.Global
}

// chanKeyOf returns where the channel v was loaded from.
func chanKeyOf(v ssa.Value) (chanKey, bool) {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return chanKey{}, false
	}
	switch x := u.X.(type) {
	case *ssa.Global:
		return chanKey{g: x}, true
	case *ssa.FieldAddr:
		if ref, ok := fieldRefOf(x); ok {
			return chanKey{ref: ref}, true
		}
	}
	return chanKey{}, false
}

// putChans returns the channels of the package whose receiver puts what it
// receives back into a pool, on some path, each with the position of such
// a Put; built on first use.
func (c *checker) putChans() map[chanKey]token.Pos {
	if c.sendPuts != nil {
		return c.sendPuts
	}
	c.sendPuts = map[chanKey]token.Pos{}
	for _, fn := range c.funcs {
		puts, _ := c.sites(fn)
		for _, p := range puts {
			if p.key.cell {
				continue
			}
			if k, ok := chanKeyOf(recvChan(p.key.v)); ok {
				if _, seen := c.sendPuts[k]; !seen {
					c.sendPuts[k] = p.instr.Pos()
				}
			}
		}
	}
	return c.sendPuts
}

// recvChan returns the channel v was received from (<-ch; v, ok := <-ch
// and range ch; a select case receiving from it), or nil.
func recvChan(v ssa.Value) ssa.Value {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return x.X
		}
	case *ssa.Extract:
		if u, ok := x.Tuple.(*ssa.UnOp); ok && u.Op == token.ARROW && x.Index == 0 {
			return u.X
		}
		sel, ok := x.Tuple.(*ssa.Select)
		if !ok || x.Index < 2 {
			return nil
		}
		k := x.Index - 2 // results of receiving cases follow index and recvOk
		for _, st := range sel.States {
			if st.Dir != types.RecvOnly {
				continue
			}
			if k == 0 {
				return st.Chan
			}
			k--
		}
	}
	return nil
}

// selectorBase returns the source of x in x.f, or false when e is not a
// selector.
func selectorBase(e ast.Expr) (string, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	return types.ExprString(sel.X), true
}

// recvChans returns the channels instr receives from: <-ch, or the
// receiving cases of a select.
func recvChans(instr ssa.Instruction) []ssa.Value {
	switch x := instr.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW {
			return []ssa.Value{x.X}
		}
	case *ssa.Select:
		var chans []ssa.Value
		for _, st := range x.States {
			if st.Dir == types.RecvOnly {
				chans = append(chans, st.Chan)
			}
		}
		return chans
	}
	return nil
}

// refsOf returns v's referrers, or none.
func refsOf(v ssa.Value) []ssa.Instruction {
	if refs := v.Referrers(); refs != nil {
		return *refs
	}
	return nil
}

// checkSendPut reports a use of an object after it was sent on a channel
// whose receiver puts it back into the pool, with nothing in between (a
// receive, a Wait, a lock) that orders the receiver's Put after the use
// (phuslu/log's AsyncWriter: w.ch <- entry; return len(entry.buf), nil).
func (c *checker) checkSendPut(fn *ssa.Function) {
	if !*enabled[checkUseAfterPut] {
		return
	}
	chans := c.putChans()
	waiters := c.closeWaiters()
	if len(chans) == 0 && len(waiters) == 0 {
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				c.useAfterClose(fn, x, waiters)
			case *ssa.Send:
				c.useAfterSend(fn, instr, x.Chan, x.X, chans)
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						c.useAfterSend(fn, instr, st.Chan, st.Send, chans)
					}
				}
			}
		}
	}
}

// useAfterSend reports the first use of obj after instr sent it on ch, if
// ch is one of chans.
func (c *checker) useAfterSend(fn *ssa.Function, instr ssa.Instruction, ch, obj ssa.Value, chans map[chanKey]token.Pos) {
	k, ok := chanKeyOf(ch)
	if !ok || obj == nil || !pointerLike(obj.Type()) {
		return
	}
	put, ok := chans[k]
	if !ok {
		return
	}
	c.firstUseAfter(fn, instr, obj, func(pos token.Pos) {
		name, chName := "the object", "the channel"
		if s := c.sendStmt(instr); s != nil {
			name, chName = types.ExprString(s.Value), types.ExprString(s.Chan)
		}
		c.report(checkUseAfterPut, pos, nil,
			"%s is used after it was sent on %s, whose receiver puts it back into the pool (line %d): by then the next Get may have handed it to another user; take what you need before the send",
			name, chName, c.line(put))
	})
}

// firstUseAfter calls report with the position of the first use of obj
// after the hand-off instr that nothing orders after the other side's
// Put (a wait on one of obj's channels is not a use).
func (c *checker) firstUseAfter(fn *ssa.Function, instr ssa.Instruction, obj ssa.Value, report func(token.Pos)) {
	t := c.newTracker(fn, rootOf(obj))
	waits := waitLoads(fn)
	t.walkAfterHandOff(instr, func(in ssa.Instruction, p *path) action {
		if in == instr || waits[in] || !t.usesObject(in, p) || errorReturn(in, p) {
			return next
		}
		report(c.usePos(t, p, in, instr))
		return stopAll
	})
}

// closeWaiters returns the struct types of the package whose objects a
// function puts back after receiving from one of their channel fields
// (<-m.done, then release(m)), each with the position of such a Put;
// built on first use.
func (c *checker) closeWaiters() map[*types.TypeName]token.Pos {
	if c.closeWait != nil {
		return c.closeWait
	}
	c.closeWait = map[*types.TypeName]token.Pos{}
	for _, fn := range c.funcs {
		puts, _ := c.sites(fn)
		if len(puts) == 0 {
			continue
		}
		waited := map[ssa.Value]bool{} // objects one of whose channel fields fn receives from
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				for _, ch := range recvChans(instr) {
					if fa, ok := loadedField(ch); ok {
						waited[rootOf(fa.X).v] = true
					}
				}
			}
		}
		for _, p := range puts {
			if p.key.cell || !waited[p.key.v] {
				continue
			}
			if n, ok := namedPtr(p.key.v.Type()); ok {
				if _, seen := c.closeWait[n.Obj()]; !seen {
					c.closeWait[n.Obj()] = p.instr.Pos()
				}
			}
		}
	}
	return c.closeWait
}

// useAfterClose reports the first use of x after close(x.f), when a
// function of the package waits on a channel field of x's type and then
// puts the object back: closing the channel hands x to that waiter
// (valyala/gorpc 2bd442a: close(m.done), then time.Since(m.t), while
// CallTimeout released m on <-m.Done).
func (c *checker) useAfterClose(fn *ssa.Function, call *ssa.Call, waiters map[*types.TypeName]token.Pos) {
	if !isBuiltin(&call.Call, "close") || len(call.Call.Args) != 1 {
		return
	}
	fa, ok := loadedField(call.Call.Args[0])
	if !ok {
		return
	}
	n, ok := namedPtr(fa.X.Type())
	if !ok {
		return
	}
	put, ok := waiters[n.Obj()]
	if !ok {
		return
	}
	name := "the " + n.Obj().Name()
	if ce := c.callExpr(call.Call.Pos()); ce != nil && len(ce.Args) == 1 {
		if x, ok := selectorBase(ce.Args[0]); ok {
			name = x // close(m.done): m
		}
	}
	c.firstUseAfter(fn, call, fa.X, func(pos token.Pos) {
		c.report(checkUseAfterPut, pos, nil,
			"%s is used after the channel it signals on was closed at line %d: a function waiting on that channel puts it back into the pool (line %d), and the next Get may already have handed it to another user; take what you need before the close",
			name, c.line(call.Pos()), c.line(put))
	})
}

// sendStmt returns the send statement of a Send, or of the sending case of
// a Select (its position is that of the case's arrow).
func (c *checker) sendStmt(instr ssa.Instruction) *ast.SendStmt {
	var pos token.Pos
	switch x := instr.(type) {
	case *ssa.Send:
		pos = x.Pos()
	case *ssa.Select:
		for _, st := range x.States {
			if st.Dir == types.SendOnly {
				pos = st.Pos
				break
			}
		}
	}
	file := c.fileOf(pos)
	if file == nil {
		return nil
	}
	nodes, _ := astutil.PathEnclosingInterval(file, pos, pos)
	for _, n := range nodes {
		if s, ok := n.(*ast.SendStmt); ok {
			return s
		}
	}
	return nil
}

// waitLoads returns the loads of channel fields that fn only receives from
// (<-w.done, case <-w.done:), and their field addresses: reading the
// channel to wait on is how the sender waits for the receiver to be done
// with the object, not a use of it (fasthttp's pipelined client).
func waitLoads(fn *ssa.Function) map[ssa.Instruction]bool {
	out := map[ssa.Instruction]bool{}
	mark := func(ch ssa.Value) {
		ld, ok := ch.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return
		}
		for _, ref := range refsOf(ld) {
			switch r := ref.(type) {
			case *ssa.UnOp:
				if r.Op != token.ARROW {
					return
				}
			case *ssa.Select:
				for _, st := range r.States {
					if st.Chan == ld && st.Dir != types.RecvOnly {
						return
					}
				}
			default:
				return
			}
		}
		out[ld] = true
		// w.t.C: the loads and field addresses leading to the channel,
		// each read for it alone.
		for x := ld.X; len(refsOf(x)) == 1; {
			switch v := x.(type) {
			case *ssa.FieldAddr:
				out[v] = true
				x = v.X
			case *ssa.UnOp:
				if v.Op != token.MUL {
					return
				}
				out[v] = true
				x = v.X
			default:
				return
			}
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			for _, ch := range recvChans(instr) {
				mark(ch)
			}
		}
	}
	return out
}
