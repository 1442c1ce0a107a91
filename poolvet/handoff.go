package poolvet

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A handOff is an instruction that gives the object, or memory it shares,
// to a user that may outlive the instruction: a goroutine, the receiver of
// a channel send, or a longer-lived value it is stored in.
type handOff struct {
	instr    ssa.Instruction
	what     string    // for a later Put: "a goroutine started", "the receiver of the channel send", ...
	to       string    // for a deferred Put: "a goroutine", "the receiver of this send", ...
	store    bool      // a store into long-lived memory, which a later call may clear
	global   bool      // that memory is a package-level variable's
	returned bool      // that memory is a field of a struct the function returns
	send     token.Pos // for a select, the arrow of the case that sends the object
	// keptAt: for a call whose callee keeps the object in a map
	// (keepsAt), where, in the callee.
	keptAt token.Pos
}

// pos returns where the hand-off is in the source: a select's sending case,
// or the instruction.
func (h handOff) pos() token.Pos {
	if h.keptAt.IsValid() {
		return h.keptAt
	}
	if h.send.IsValid() {
		return h.send
	}
	return h.instr.Pos()
}

// checkHandOffs reports Puts that can run while another user the object was
// handed to may still hold it, with nothing on the way (a WaitGroup's Wait,
// a channel receive, a lock, a select) that orders that user first.
func (c *checker) checkHandOffs(fn *ssa.Function, puts []putSite) {
	if !*enabled[checkUseAfterPut] && !*enabled[checkDoublePut] || len(puts) == 0 {
		return
	}
	for i := range puts {
		p := &puts[i]
		// A conditional Put (a wrapper that puts on some paths, a deferred
		// closure with a size guard) still races on the paths that put.
		if !trackable(p) || p.field || p.synced {
			continue
		}
		t := c.newTracker(fn, p.key)
		hs := c.handOffs(fn, t)
		if len(hs) == 0 {
			continue
		}
		if p.deferred {
			c.checkDeferredHandOffs(fn, t, p, hs)
			continue
		}
		for _, h := range hs {
			if c.putFollows(t, h.instr, p) && h.keptAt.IsValid() {
				c.reportKept(fn, p, h, "at line %d after the call")
				break
			}
			if c.putFollows(t, h.instr, p) && c.freeListStore(h) {
				c.report(checkDoublePut, p.instr.Pos(), nil,
					"%s is put into the pool while %s at line %d%s keeps it in a free list from which the package hands objects out too: two Gets, one from each, can return the same object; keep it in one of them",
					c.objName(p), h.what, c.line(h.pos()), closeParen(h.what))
				break
			}
			if c.putFollows(t, h.instr, p) {
				c.report(checkUseAfterPut, p.instr.Pos(), nil,
					"%s is put back into the pool while %s at line %d%s may still use it: nothing (a WaitGroup, a channel receive, a lock) orders that use before the Put, so the next Get can hand the object to another user mid-use",
					c.objName(p), h.what, c.line(h.pos()), closeParen(h.what))
				break
			}
		}
	}
}

// checkGoPuts reports a Put of an object that a goroutine started before
// it puts back itself: a receive or a Wait on the way orders the
// goroutine's work, not its Put, so the object goes back twice
// (langwatch/tasks#585: a once-guarded finalizer in the stream goroutine
// and a direct release on the error path).
func (c *checker) checkGoPuts(fn *ssa.Function, puts []putSite) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			mc, ok := g.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			f, ok := mc.Fn.(*ssa.Function)
			if !ok || c.sums[f] == nil {
				continue
			}
			for idx, fp := range c.sums[f].putFree {
				if idx >= len(mc.Bindings) {
					continue
				}
				key := objKey{mc.Bindings[idx], true}
				if !fp.cell {
					key = rootOf(mc.Bindings[idx])
				}
				c.putAfterGo(fn, g, key, puts)
			}
		}
	}
}

// putAfterGo reports the first unconditional Put of obj that can run after
// the go statement g, whose goroutine puts obj too.
func (c *checker) putAfterGo(fn *ssa.Function, g *ssa.Go, obj objKey, puts []putSite) {
	t := c.newTracker(fn, obj)
	t.walk(g, func(instr ssa.Instruction, path *path) action {
		for i := range puts {
			q := &puts[i]
			if q.instr != instr || q.cond || q.field || q.deferred || !t.sameObject(path, q.key) {
				continue
			}
			c.report(checkDoublePut, q.instr.Pos(), nil,
				"%s is put into the pool here, and the goroutine started at line %d puts it back too: two later Gets can return the same object",
				c.objName(q), c.line(g.Pos()))
			return stopAll
		}
		return next
	})
}

// checkDeferredHandOffs reports hand-offs after which the function can
// return, running the deferred Put p, with no synchronisation on the way.
func (c *checker) checkDeferredHandOffs(fn *ssa.Function, t *tracker, p *putSite, hs []handOff) {
	// A deferred Wait or Lock runs too, possibly before the Put: stay silent.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && d != p.instr && c.isSyncCall(&d.Call) {
				return
			}
		}
	}
	for _, h := range hs {
		if p.cond && flagSetAfter(fn, p, h.instr) {
			continue
		}
		registered := precedes(p.instr, h.instr)
		found := false
		t.walkAfterHandOff(h.instr, func(instr ssa.Instruction, _ *path) action {
			if instr == p.instr {
				registered = true
			}
			if _, ok := instr.(*ssa.Return); ok && registered {
				found = true
				return stopAll
			}
			return next
		})
		if found && h.keptAt.IsValid() {
			c.reportKept(fn, p, h, "with the deferred Put at line %d when it returns")
			return
		}
		if found {
			c.report(checkUseAfterPut, h.pos(), nil,
				"%s is handed to %s here, but the deferred Put at line %d gives it back to the pool when the function returns without waiting for that user: the next Get can hand the object to another user mid-use",
				c.objName(p), h.to, c.line(p.instr.Pos()))
			return
		}
	}
}

// flagSetAfter reports whether the deferred closure of the conditional Put
// p branches on a boolean variable of fn that fn sets after the hand-off
// h: the author skips the Put on the path where the user outlives
// (projectdiscovery/nuclei#7378's runtimeAbandoned).
func flagSetAfter(fn *ssa.Function, p *putSite, h ssa.Instruction) bool {
	d, ok := p.instr.(*ssa.Defer)
	if !ok {
		return false
	}
	mc, ok := d.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	cf, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for _, b := range cf.Blocks {
		ifi, ok := lastInstr(b).(*ssa.If)
		if !ok {
			continue
		}
		cond := ifi.Cond
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond = not.X
		}
		ld, ok := cond.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		fv, ok := ld.X.(*ssa.FreeVar)
		if !ok {
			continue
		}
		for i, q := range cf.FreeVars {
			if q != fv || i >= len(mc.Bindings) {
				continue
			}
			cell, ok := mc.Bindings[i].(*ssa.Alloc)
			if !ok {
				continue
			}
			for _, r := range *cell.Referrers() {
				if st, ok := r.(*ssa.Store); ok && st.Addr == cell && st.Parent() == fn && isConst(st.Val) && st.Block() != h.Block() && mayPrecede(h, st) {
					return true
				}
			}
		}
	}
	return false
}

// reportKept reports the call h of fn that passes memory of the object of
// p to a callee that keeps it in a map, when fn puts the object back
// afterwards (when says how: "at line %d after the call"). The report is
// at the call: the map store is right for the callee's other callers.
func (c *checker) reportKept(fn *ssa.Function, p *putSite, h handOff, when string) {
	c.report(checkUseAfterPut, h.instr.Pos(), nil,
		"%s, or memory of it, is passed here to a call that keeps it in a map (%s), and goes back to the pool "+when+": the map then holds memory the next Get hands to another user; keep a copy in the map (bytes.Clone), or take it out before the Put",
		c.objName(p), c.shortPos(h.keptAt), c.line(p.instr.Pos()))
}

// precedes reports whether a runs before b on every path: a's block
// dominates b's, and a comes first when they share a block.
func precedes(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, instr := range a.Block().Instrs {
		if instr == a {
			return true
		}
		if instr == b {
			return false
		}
	}
	return false
}

// putFollows reports whether p, putting the tracked object, can be reached
// from h on a path without synchronisation.
func (c *checker) putFollows(t *tracker, h ssa.Instruction, p *putSite) bool {
	found := false
	if errv := c.successOnly(t, h); errv != nil {
		// The callee hands the object off only when it returns a nil
		// error: follow the paths where the caller found it nil.
		t.seed = map[ssa.Value]bool{}
		for _, v := range errReads(errv) {
			for _, r := range *v.Referrers() {
				if bin, ok := r.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) && (isNil(bin.X) || isNil(bin.Y)) {
					t.seed[bin] = bin.Op == token.EQL
				}
			}
		}
		defer func() { t.seed = nil }()
	}
	t.walkAfterHandOff(h, func(instr ssa.Instruction, path *path) action {
		if instr == p.instr && t.sameObject(path, p.key) {
			found = true
			return stopAll
		}
		return next
	})
	return found
}

// errReads returns errv and its reloads: if err = send(b); err != nil,
// with err a variable (a captured one, say) stored and loaded again in
// the same block, with no other store between.
func errReads(errv ssa.Value) []ssa.Value {
	out := []ssa.Value{errv}
	for _, r := range *errv.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Val != errv {
			continue
		}
		after := false
		for _, instr := range st.Block().Instrs {
			if instr == st {
				after = true
				continue
			}
			if !after {
				continue
			}
			if s2, ok := instr.(*ssa.Store); ok && s2.Addr == st.Addr {
				break
			}
			if ld, ok := instr.(*ssa.UnOp); ok && ld.Op == token.MUL && ld.X == st.Addr {
				out = append(out, ld)
			}
		}
	}
	return out
}

// successOnly returns the error result of h, a call to a function of the
// package that hands the tracked object off only on paths that return a
// nil error (summary.onSuccess), or nil.
func (c *checker) successOnly(t *tracker, h ssa.Instruction) ssa.Value {
	call, ok := h.(*ssa.Call)
	if !ok {
		return nil
	}
	ce, ok := c.calleeOf(&call.Call)
	if !ok || ce.sum == nil || len(ce.sum.onSuccess) == 0 {
		return nil
	}
	args := callArgs(&call.Call)
	held := false
	for i := range ce.sum.onSuccess {
		if i < len(args) && t.class(&path{}, args[i]) != notAlias {
			held = true
		}
	}
	for i := range ce.sum.handsOff {
		if !ce.sum.onSuccess[i] && i < len(args) && t.class(&path{}, args[i]) != notAlias {
			return nil // also handed off whatever the outcome
		}
	}
	res := call.Call.Signature().Results()
	if !held || res.Len() == 0 {
		return nil
	}
	if res.Len() == 1 {
		return call
	}
	for _, r := range *call.Referrers() {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index == res.Len()-1 {
			return ex
		}
	}
	return nil
}

// isHandOffSync is isSync for the walks after a hand-off: a select with a
// case that does not order the other goroutine's work (a context's Done,
// time.After, a timer) is not a sync by itself; the walk follows that
// case, and stops on the paths of the other cases (walkAfterHandOff).
func (c *checker) isHandOffSync(instr ssa.Instruction) bool {
	if sel, ok := instr.(*ssa.Select); ok {
		for k := range sel.States {
			if !orderingCase(sel, k) {
				return false
			}
		}
		return !sel.Blocking // a default case does not wait
	}
	return c.isSync(instr)
}

// orderingCase reports whether taking case k of sel orders another
// goroutine's work before what follows: a receive from a channel, except a
// context's Done, time.After or time.Tick, and a timer's or ticker's C.
// A send case counts as ordering (precision first).
func orderingCase(sel *ssa.Select, k int) bool {
	if k < 0 || k >= len(sel.States) {
		return false
	}
	st := sel.States[k]
	if st.Dir != types.RecvOnly {
		return true
	}
	switch ch := st.Chan.(type) {
	case *ssa.Call:
		if ch.Call.IsInvoke() && ch.Call.Method.Name() == "Done" {
			return false
		}
		switch calleeName(&ch.Call) {
		case "time.After", "time.Tick", "context.Context.Done":
			return false
		}
	case *ssa.UnOp:
		if fa, ok := ch.X.(*ssa.FieldAddr); ok && ch.Op == token.MUL {
			if n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named); ok && n.Obj().Pkg() != nil &&
				n.Obj().Pkg().Path() == "time" && (n.Obj().Name() == "Timer" || n.Obj().Name() == "Ticker") {
				return false
			}
		}
	}
	return true
}

// selectCase returns the select and the case that an if's condition tests
// (index == k, as SSA tests the cases of a select one by one).
func selectCase(cond ssa.Value) (*ssa.Select, int, bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return nil, 0, false
	}
	ex, ok := bin.X.(*ssa.Extract)
	k, ok2 := bin.Y.(*ssa.Const)
	if !ok || !ok2 || ex.Index != 0 || k.Value == nil {
		return nil, 0, false
	}
	sel, ok := ex.Tuple.(*ssa.Select)
	if !ok {
		return nil, 0, false
	}
	return sel, int(k.Int64()), true
}

// handOffs returns the instructions of fn that hand the tracked object, or
// an alias of it, to a user that may outlive them.
func (c *checker) handOffs(fn *ssa.Function, t *tracker) []handOff {
	var out []handOff
	// Reloads of a field the object was loaded from are left out: where
	// they are the object depends on the path.
	none := &path{clobbered: true}
	alias := func(v ssa.Value) bool { return v != nil && t.class(none, v) != notAlias }
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Go:
				if c.goHandsOff(&x.Call, alias) {
					out = append(out, handOff{instr: x, what: "a goroutine started", to: "a goroutine"})
				}
			case *ssa.Send:
				if alias(x.X) {
					out = append(out, handOff{instr: x, what: "the receiver of the channel send", to: "the receiver of this channel send"})
				}
			case *ssa.Select:
				// select { case ch <- b: ... }: a send too, on that case's
				// paths (walkAfterHandOff follows only those).
				for _, st := range x.States {
					if st.Dir == types.SendOnly && alias(st.Send) {
						out = append(out, handOff{instr: x, what: "the receiver of the channel send", to: "the receiver of this channel send", send: st.Pos})
						break
					}
				}
			case *ssa.Call:
				// A request whose field holds the object (out.Body = lr)
				// carries it to the transport (caddyserver/caddy#5924).
				holds := func(v ssa.Value) bool { return alias(v) || t.holdsAlias(v, x) }
				if h, ok := c.callHandsOff(&x.Call, alias, holds); ok {
					h.instr = x
					out = append(out, h)
					continue
				}
				// A method that keeps its argument in memory its receiver
				// reaches, called on a package-level value
				// (memory.Set(c.Cookie(), v)).
				kept := false
				for _, a := range callArgs(&x.Call) {
					if !alias(a) {
						continue
					}
					r := c.retainingReceiver(&x.Call, a)
					addr := r // a package-level value itself (a sync.Map's Store)
					if u, ok := r.(*ssa.UnOp); ok && u.Op == token.MUL {
						addr = u.X
					}
					if _, ok := addr.(*ssa.Global); ok || addr != r {
						if loc, global, ok := longLived(addr); ok {
							out = append(out, handOff{instr: x, what: loc + " (kept there by the call", to: loc + ", which outlives the call", store: true, global: global})
							kept = true
							break
						}
					}
					// ctx.SendBytes(buf.Bytes()) on the method's own
					// receiver, or c.resp.SetBodyRaw(b) on a field of it:
					// the receiver holds it after the method returns
					// (gofiber/fiber#625).
					loc, ok := "", false
					if prm, isPrm := r.(*ssa.Parameter); isPrm && isReceiver(prm) && isPointer(prm.Type()) {
						loc, ok = prm.Name(), true
					} else if fa, isFA := r.(*ssa.FieldAddr); isFA {
						loc, _, ok = longLived(fa)
					}
					if ok && !clearedAfterCall(fn, x, r) {
						out = append(out, handOff{instr: x, what: loc + " (kept there by the call", to: loc + ", which outlives the call", store: true})
						kept = true
						break
					}
				}
				if kept {
					continue
				}
				// The interface the object was asserted from, loaded
				// again for the call (WriteChunk(chk.chunk); then
				// Release(chk.chunk.(*XOR2Chunk)), prometheus#18238).
				keeps := func(v ssa.Value) bool { return alias(v) || reloadOfAsserted(t.key.v, v) }
				if pos := c.keptByCallee(&x.Call, keeps); pos.IsValid() {
					out = append(out, handOff{instr: x, what: "the map a callee keeps it in", to: "a map", store: true, keptAt: pos})
				}
			case *ssa.MapUpdate:
				// cache[k] = b.Bytes() into a package-level map or a map
				// field of the receiver.
				// A key that is a view of the object (an unsafe string
				// over its bytes, gofiber/fiber#3828) is kept too.
				if !alias(x.Value) && !alias(x.Key) || alias(x.Map) {
					continue
				}
				if loc, global, ok := longLived(x.Map); ok && !deletesFrom(fn, x.Map) {
					out = append(out, handOff{instr: x, what: loc + " (stored there", to: loc + ", which outlives the call", store: true, global: global})
				}
			case *ssa.Store:
				if !(alias(x.Val) || appendsAlias(x.Val, alias)) || alias(x.Addr) {
					continue
				}
				if t.key.cell && x.Addr == t.key.v {
					continue // the object's own variable
				}
				// Callers in the package that use the request after the
				// call are reported there (checkPutInto).
				if what, ok := callerBody(x.Addr); ok && len(c.callSitesOf(fn)) == 0 {
					out = append(out, handOff{instr: x, what: what + " (stored in its Body", to: what + ", which is read or sent after this function returns", store: true})
					continue
				}
				loc, global, ok := longLived(x.Addr)
				returned := false
				if !ok {
					// nL.ctx = enc.Buf()[1:]; ...; return nL: the caller
					// gets the struct that holds the view
					// (francoispqt/onelog 499bd7d).
					loc, ok = returnedHolder(fn, x.Addr)
					returned = ok
				}
				if !ok || clearedElsewhere(fn, x, loc, alias) {
					continue
				}
				out = append(out, handOff{instr: x, what: loc + " (stored there", to: loc + ", which outlives the call", store: true, global: global, returned: returned})
			}
		}
	}
	return out
}

// clearedAfterCall reports whether fn, after the call, calls a method on
// recv again with constant arguments only (c.SetBody(nil)): the kept alias
// may be dropped before the Put.
func clearedAfterCall(fn *ssa.Function, call *ssa.Call, recv ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(*ssa.Call)
			if !ok || ci == call || !mayPrecede(call, ci) {
				continue
			}
			args := callArgs(&ci.Call)
			if len(args) < 2 || args[0] != recv {
				continue
			}
			all := true
			for _, a := range args[1:] {
				if !isConst(a) {
					all = false
				}
			}
			if all {
				return true // c.SetBody(nil)
			}
		}
	}
	return false
}

// reloadOfAsserted reports whether v is a load of the same field as the
// interface value that key, a type assertion's result, asserts.
func reloadOfAsserted(key, v ssa.Value) bool {
	if ex, ok := key.(*ssa.Extract); ok && ex.Index == 0 {
		key = ex.Tuple
	}
	ta, ok := key.(*ssa.TypeAssert)
	if !ok {
		return false
	}
	_, isLoad := stripConv(ta.X).(*ssa.UnOp)
	return isLoad && sameLoc(ta.X, v)
}

// transportSinks are the calls that give a request to net/http's
// transport. The transport may read the request body, and use the
// request's context, after the call returned: "RoundTrip must always close
// the body, including on errors, but depending on the implementation may
// do so in a separate goroutine even after RoundTrip returns"
// (net/http.RoundTripper).
var transportSinks = map[string]bool{
	"net/http.Client.Do": true, "net/http.Client.Post": true, "net/http.Post": true,
	"net/http.Transport.RoundTrip": true, "net/http.RoundTripper.RoundTrip": true,
}

// callHandsOff reports whether a call passes an alias of the object to a
// user that may outlive the call: net/http's transport (given an alias or
// a request that holds one, per holds), or a function of which a summary
// says that it passes that parameter on.
func (c *checker) callHandsOff(com *ssa.CallCommon, alias, holds func(ssa.Value) bool) (handOff, bool) {
	args := callArgs(com)
	if com.IsInvoke() {
		args = append([]ssa.Value{com.Value}, com.Args...)
	}
	if name := calleeName(com); transportSinks[name] {
		// The request and its body, not the client or transport, which
		// a program may pool as well.
		for i, a := range args {
			if holds(a) && (i > 0 || !isMethodCall(com)) {
				return handOff{what: "net/http's transport (given the request", to: "net/http's transport, which can still read the request body and use its context after the call returns"}, true
			}
		}
		return handOff{}, false
	}
	ce, ok := c.calleeOf(com)
	if !ok || ce.sum == nil || len(ce.sum.handsOff) == 0 {
		return handOff{}, false
	}
	for i, a := range args {
		if ce.sum.handsOff[i] && alias(a) {
			name := "the callee"
			if fn := com.StaticCallee(); fn != nil {
				name = fn.Name()
			}
			return handOff{what: "the user that " + name + " passes it on to (called", to: name + ", which passes it on to a user that outlives the call"}, true
		}
	}
	return handOff{}, false
}

// isMethodCall reports whether the first of callArgs(com), or the invoked
// interface value, is a receiver.
func isMethodCall(com *ssa.CallCommon) bool {
	if com.IsInvoke() {
		return true
	}
	fn := com.StaticCallee()
	return fn != nil && fn.Signature.Recv() != nil
}

// calleeName returns "pkg/path.Recv.Name" or "pkg/path.Name" for the
// function or interface method a call invokes, or "".
func calleeName(com *ssa.CallCommon) string {
	var obj *types.Func
	if com.IsInvoke() {
		obj = com.Method
	} else if fn := com.StaticCallee(); fn != nil {
		obj, _ = fn.Object().(*types.Func)
	}
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	if r := recvName(obj); r != "" {
		return obj.Pkg().Path() + "." + r + "." + obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

// handsOffParams returns the parameters that fn passes on to a user that
// may outlive it (a goroutine, a channel, net/http's transport, or a
// function that does), on a path that returns without waiting for that
// user. Parameters that fn puts into a pool itself are not among them, nor
// stores into long-lived memory other than package-level variables, which
// another call may clear, nor the receiver: a type that runs goroutines of its own (an encoder's Close or
// Write) has its own way to wait for them.
func (c *checker) handsOffParams(fn *ssa.Function, s *summary) (map[int]bool, map[int]bool) {
	if !c.mayHandOff(fn) {
		return nil, nil
	}
	var out, onSuccess map[int]bool
	for i, prm := range fn.Params {
		if _, put := s.putParams[i]; put || !hasPointers(prm.Type()) || isReceiver(prm) {
			continue
		}
		t := c.newTracker(fn, objKey{prm, false})
		success := true
		for _, h := range c.handOffs(fn, t) {
			if h.store && !h.global {
				continue
			}
			found, nilErr := c.returnsAfterHandOff(t, h.instr)
			if !found {
				continue
			}
			if out == nil {
				out = map[int]bool{}
			}
			out[i] = true
			success = success && nilErr
		}
		if out[i] && success {
			if onSuccess == nil {
				onSuccess = map[int]bool{}
			}
			onSuccess[i] = true
		}
	}
	return out, onSuccess
}

// returnsAfterHandOff reports whether fn can return after the hand-off h
// on a path with no synchronisation (found), and whether every such return
// returns a nil error as fn's last result.
func (c *checker) returnsAfterHandOff(t *tracker, h ssa.Instruction) (found, nilErr bool) {
	res := t.fn.Signature.Results()
	nilErr = res.Len() > 0 && isErrorType(res.At(res.Len()-1).Type())
	// Returning the error of a callee that hands off only on success
	// (return r.handle(f)) is returning nil on the paths that handed off.
	errv := c.successOnly(t, h)
	t.walkAfterHandOff(h, func(instr ssa.Instruction, _ *path) action {
		if ret, ok := instr.(*ssa.Return); ok {
			found = true
			if len(ret.Results) == 0 {
				nilErr = false
			} else if last := storedResult(ret.Results[len(ret.Results)-1]); !isNil(last) && (errv == nil || last != errv) {
				nilErr = false
			}
		}
		return next
	})
	return found, found && nilErr
}

// mayHandOff is a quick test that fn has an instruction that can hand an
// object off: a go statement, a channel send, or a call to the transport
// or to a function that hands off.
func (c *checker) mayHandOff(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Go, *ssa.Send:
				return true
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						return true
					}
				}
			case *ssa.MapUpdate:
				// into a package-level map (a key that views the object)
				if ld, ok := x.Map.(*ssa.UnOp); ok && ld.Op == token.MUL {
					if _, ok := ld.X.(*ssa.Global); ok {
						return true
					}
				}
			case *ssa.Call:
				if transportSinks[calleeName(&x.Call)] {
					return true
				}
				if len(c.retainSums(&x.Call)) > 0 {
					return true // on a package-level receiver: handOffs
				}
				if ce, ok := c.calleeOf(&x.Call); ok && ce.sum != nil && len(ce.sum.handsOff) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// goHandsOff reports whether a go statement passes an alias of the object
// to the new goroutine, which does not put it back itself.
func (c *checker) goHandsOff(com *ssa.CallCommon, alias func(ssa.Value) bool) bool {
	passes := alias(com.Value)
	args := map[int]bool{} // the arguments that are the object, receiver first
	for i, a := range callArgs(com) {
		if alias(a) {
			passes = true
			args[i] = true
		}
	}
	// go func() { ... }() capturing the object: the bindings that are it.
	free := map[int]bool{}
	if mc, ok := com.Value.(*ssa.MakeClosure); ok {
		for i, b := range mc.Bindings {
			if alias(b) || cellHolds(b, alias) {
				passes = true
				free[i] = true
			}
		}
	}
	if !passes {
		return false
	}
	// The goroutine takes ownership if it puts the object back itself.
	// A closure that captures the object and puts only other objects it
	// captured (its own request, a response it got) leaves this one to
	// the caller (gofiber/fiber#3830).
	if ce, ok := c.calleeOf(com); ok {
		if ce.prim != nil {
			return false
		}
		if ce.sum != nil {
			if len(free) == 0 && (len(ce.sum.putParams) > 0 || len(ce.sum.putFree) > 0) {
				return false
			}
			for i := range args {
				if _, puts := ce.sum.putParams[i]; puts {
					return false
				}
			}
			for i := range free {
				if _, puts := ce.sum.putFree[i]; puts {
					return false
				}
			}
			if len(free) > 0 && len(args) > 0 && len(ce.sum.putParams) > 0 {
				return false
			}
		}
	}
	return true
}

// cellHolds reports whether v is a variable's cell (a captured variable)
// into which an alias of the object is stored, or from which one is
// loaded.
func cellHolds(v ssa.Value, alias func(ssa.Value) bool) bool {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, r := range refsOf(a) {
		if st, ok := r.(*ssa.Store); ok && st.Addr == a && alias(st.Val) {
			return true
		}
		if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL && alias(ld) {
			return true
		}
	}
	return false
}

// closeParen returns ")" if what opens a parenthesis, for the message
// "package-level x (stored there at line 12) may still use it".
func closeParen(what string) string {
	if strings.Count(what, "(") > strings.Count(what, ")") {
		return ")"
	}
	return ""
}

// deletesFrom reports whether fn deletes from the map m, or one loaded
// from the same place (delete(cache, k) before the Put).
func deletesFrom(fn *ssa.Function, m ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			if bi, ok := call.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "delete" || bi.Name() == "clear") &&
				(call.Call.Args[0] == m || sameLoc(call.Call.Args[0], m)) {
				return true
			}
		}
	}
	return false
}

// appendsAlias reports whether v is the result of an append whose new
// elements include an alias of the object (list = append(list, x)): the
// slice v then holds the object. append(list, x...) copies x's elements
// and is not one.
func appendsAlias(v ssa.Value, alias func(ssa.Value) bool) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	for _, e := range appendedElems(call) {
		if alias(e) {
			return true
		}
	}
	return false
}

// appendedElems returns the new elements of append(list, x, y): the
// values stored into the fresh array that the call's variadic argument
// slices; none for append(list, x...).
func appendedElems(call *ssa.Call) []ssa.Value {
	if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" || len(call.Call.Args) < 2 {
		return nil
	}
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok || arr.Referrers() == nil {
		return nil
	}
	var out []ssa.Value
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok || ia.Referrers() == nil {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// longLived describes the location at addr if it is memory that outlives
// the call: a package-level variable, a variable captured from the
// enclosing function, or a field reached from one or from the receiver;
// global says it is reached from a package-level variable.
func longLived(addr ssa.Value) (loc string, global, ok bool) {
	var fields []string
	for i := 0; i < 8; i++ {
		switch a := addr.(type) {
		case *ssa.Global:
			return describeLoc("package-level "+a.Name(), fields), true, true
		case *ssa.FreeVar:
			// A variable of the enclosing function, captured by this
			// closure: the enclosing function reads it after the call
			// (valyala/fasthttp#955).
			return describeLoc("captured variable "+a.Name(), fields), false, true
		case *ssa.Parameter:
			// Only the receiver: a field of another parameter is often
			// configuration of a synchronous call (cmd.Stdout = buf).
			if len(fields) == 0 || !isReceiver(a) {
				return "", false, false
			}
			return describeLoc(a.Name(), fields), false, true
		case *ssa.FieldAddr:
			ptr, ok := a.X.Type().Underlying().(*types.Pointer)
			if !ok {
				return "", false, false
			}
			st, ok := ptr.Elem().Underlying().(*types.Struct)
			if !ok || a.Field >= st.NumFields() {
				return "", false, false
			}
			fields = append([]string{st.Field(a.Field).Name()}, fields...)
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return "", false, false
			}
			addr = a.X
		default:
			return "", false, false
		}
	}
	return "", false, false
}

// callerBody reports whether addr is the Body field of a net/http request
// or response a parameter (not a receiver) points to: the caller reads or
// sends that body after the call, and net/http's transport may read it
// after RoundTrip returns (hashicorp/aws-sdk-go-base#1502, a logger that
// puts back a reader over a pooled buffer; VictoriaMetrics#8051, a pooled
// body wrapper installed on the request a proxy forwards).
func callerBody(addr ssa.Value) (string, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	prm, ok := fa.X.(*ssa.Parameter)
	if !ok || isReceiver(prm) {
		return "", false
	}
	st, ok := derefStruct(fa.X.Type())
	if !ok || fa.Field >= st.NumFields() || st.Field(fa.Field).Name() != "Body" {
		return "", false
	}
	ptr, ok := prm.Type().Underlying().(*types.Pointer)
	if !ok {
		return "", false
	}
	for _, name := range []string{"Request", "Response"} {
		if isNamed(ptr.Elem(), "net/http", name) {
			return "the caller's " + strings.ToLower(name) + " " + prm.Name(), true
		}
	}
	return "", false
}

// isReceiver reports whether p is the receiver of its method.
func isReceiver(p *ssa.Parameter) bool {
	fn := p.Parent()
	return fn.Signature.Recv() != nil && len(fn.Params) > 0 && fn.Params[0] == p
}

func describeLoc(base string, fields []string) string {
	if len(fields) == 0 {
		return base
	}
	return base + "." + strings.Join(fields, ".")
}

// returnedHolder reports whether addr is the address of a field of a struct
// pointer that fn returns, and names it.
func returnedHolder(fn *ssa.Function, addr ssa.Value) (string, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	st, ok := derefStruct(fa.X.Type())
	if !ok || fa.Field >= st.NumFields() {
		return "", false
	}
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		for _, r := range ret.Results {
			if r == fa.X {
				return "field " + st.Field(fa.Field).Name() + " of the value returned", true
			}
		}
	}
	return "", false
}

// clearedElsewhere reports whether fn also stores something other than the
// object into the same location after st, as code that parks an object in
// a field and clears the field before the Put does. A store on paths that
// never follow st (an early return that consumes the field,
// juicedata/juicefs#6947) clears nothing st stored.
func clearedElsewhere(fn *ssa.Function, st *ssa.Store, loc string, alias func(ssa.Value) bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			o, ok := instr.(*ssa.Store)
			if !ok || o == st || alias(o.Val) || !reachableFrom(st, o) {
				continue
			}
			if l, _, ok := longLived(o.Addr); ok && l == loc {
				return true
			}
		}
	}
	return false
}

// isSync reports whether instr orders another goroutine's work before what
// follows it: a channel receive, a select, or a call that waits or locks.
func (c *checker) isSync(instr ssa.Instruction) bool {
	switch x := instr.(type) {
	case *ssa.UnOp:
		return x.Op == token.ARROW
	case *ssa.Select:
		return true
	case *ssa.Call:
		return c.isSyncCall(&x.Call)
	}
	return false
}

// syncNames are the names of functions and methods that wait for or
// exclude other goroutines: sync.WaitGroup.Wait, errgroup's Wait,
// sync.Mutex.Lock, sync.Once.Do, sync.Cond.Wait and their look-alikes.
var syncNames = map[string]bool{
	"Wait": true, "Lock": true, "RLock": true, "Do": true, "Join": true,
}

// isSyncCall reports whether a call synchronises with other goroutines,
// judged by its name. Helpers that receive from a channel inside do not
// count: a receive there orders only what was sent before it.
func (c *checker) isSyncCall(com *ssa.CallCommon) bool {
	var name string
	if com.IsInvoke() {
		name = com.Method.Name()
	} else if fn := com.StaticCallee(); fn != nil {
		if fn.Parent() != nil {
			// A func literal is named after its parent (wait$1): judge it
			// by the calls it makes instead (tikv/pd#660).
			return c.callsSync(fn)
		}
		name = fn.Name()
		if obj, ok := fn.Object().(*types.Func); ok {
			name = obj.Name()
		}
	} else {
		return false
	}
	return syncNames[name] || strings.Contains(name, "Wait") || strings.Contains(name, "wait")
}

// callsSync reports whether the func literal fn makes a synchronising call
// (not one it starts in a new goroutine).
func (c *checker) callsSync(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok {
				if _, isGo := instr.(*ssa.Go); !isGo && c.isSyncCall(call.Common()) {
					return true
				}
			}
		}
	}
	return false
}

// reachableFrom reports whether b can run after a: later in a's block, or
// in a block reached from a's.
func reachableFrom(a, b ssa.Instruction) bool {
	return a.Block() == b.Block() && precedes(a, b) || reachesFrom(a.Block().Succs, b.Block())
}
