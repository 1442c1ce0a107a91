package poolvet

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A pool of *[]byte read buffers whose users read into the buffer by its
// length (conn.ReadFrom(*bp)), where one function cuts a buffer it got to
// the length of what it read (*bp = (*bp)[:n]) before handing it on, and a
// Put elsewhere gives it back without restoring the length (*bp =
// (*bp)[:cap(*bp)]): the next user reads into a shorter buffer and loses
// the end of its data (traefik/traefik#12251's UDP datagrams). Reported
// at such Puts as noreset: the length is state of the previous use.

// checkShortenedPut reports the Put p of a *[]byte into a pool whose
// buffers a function of the package shortens after a Get and whose Gets
// read into the buffer by its length, when p's function neither restores
// the length before p nor is the function that shortened it with p
// coming before the shortening.
func (c *checker) checkShortenedPut(fn *ssa.Function, p *putSite) {
	if p.prim != syncPut || len(p.args) == 0 {
		return
	}
	mi, ok := p.arg.(*ssa.MakeInterface)
	if !ok || !isPtrToByteSlice(mi.X.Type()) {
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	var cut *ssa.Store
	readsByLen := false
	for _, pg := range c.poolGets(id) {
		for _, v := range getValues(pg.g.call) {
			st := shortens(pg.fn, v)
			if st != nil && restoresFirst(v, st) {
				return // the getter restores the length before it cuts it
			}
			if st != nil && cut == nil {
				cut = st
			}
			if readsInto(pg.fn, v) {
				readsByLen = true
			}
		}
	}
	if cut == nil || !readsByLen {
		return
	}
	if cut.Parent() == fn && !reachesKeeping(cut, p.instr, cut.Addr) {
		return // put before the buffer is cut (in a loop, the next Get gives a new one)
	}
	if restoresBefore(fn, p) {
		return
	}
	c.report(checkNoReset, p.instr.Pos(), nil,
		"%s goes back to the pool still cut to the length of its last use (line %d), while the pool's users read into the buffer by its length: the next one reads into a shorter buffer and loses the end of its data; restore the length before the Put (*b = (*b)[:cap(*b)])",
		c.objName(p), c.line(cut.Pos()))
}

// getValues returns what a Get returned as the program uses it: the call,
// and its type assertions.
func getValues(call *ssa.Call) []ssa.Value {
	out := []ssa.Value{call}
	if call.Referrers() == nil {
		return out
	}
	for _, r := range *call.Referrers() {
		if ta, ok := r.(*ssa.TypeAssert); ok && !ta.CommaOk {
			out = append(out, ta)
		}
	}
	return out
}

// shortens returns the store in fn that sets *bp to a re-slice of itself
// with a length other than its capacity (*bp = (*bp)[:n]).
func shortens(fn *ssa.Function, bp ssa.Value) *ssa.Store {
	if bp.Referrers() == nil {
		return nil
	}
	for _, r := range *bp.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != bp {
			continue
		}
		sl, ok := st.Val.(*ssa.Slice)
		if !ok || !loadOf(sl.X, bp) || fullLength(sl.High, bp) {
			continue
		}
		return st
	}
	return nil
}

// restoresFirst reports whether a store that sets *bp back to its full
// length (*bp = (*bp)[:cap(*bp)]) runs before the store cut on every path:
// the getter restores what the pool gave it before it reads and cuts.
func restoresFirst(bp ssa.Value, cut *ssa.Store) bool {
	for _, r := range referrersOf(bp) {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != bp || st == cut {
			continue
		}
		sl, ok := st.Val.(*ssa.Slice)
		if !ok || !loadOf(sl.X, bp) || sl.High == nil || !fullLength(sl.High, bp) {
			continue
		}
		if st.Block() == cut.Block() && precedes(st, cut) || st.Block() != cut.Block() && st.Block().Dominates(cut.Block()) {
			return true
		}
	}
	return false
}

// fullLength reports whether high, the high bound of a re-slice of *bp,
// gives the buffer a length that does not depend on one use: none, its
// capacity, a constant or a package-level variable (*bp =
// (*bp)[:maxPktLen], sipcapture/heplify-server's restore).
func fullLength(high, bp ssa.Value) bool {
	if high == nil || capOf(high, bp) || isConst(stripConv(high)) {
		return true
	}
	ld, ok := stripConv(high).(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	_, global := ld.X.(*ssa.Global)
	return global
}

// capOf reports whether v is cap(*bp).
func capOf(v, bp ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	return ok && isBuiltin(&call.Call, "cap") && len(call.Call.Args) == 1 && loadOf(call.Call.Args[0], bp)
}

// readsInto reports whether fn passes *bp as it is to a Read-like call
// (Read, ReadFrom, ReadFull, ReadAt, ReadMsgUDP...): the read fills up to
// the buffer's length.
func readsInto(fn *ssa.Function, bp ssa.Value) bool {
	if bp.Referrers() == nil {
		return false
	}
	for _, r := range *bp.Referrers() {
		ld, ok := r.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || ld.Referrers() == nil {
			continue
		}
		// *bp, or (*bp)[0:] (felipejfc/udpx#3's ReadFromUDP((*msg)[0:]))
		uses := slices.Clone(*ld.Referrers())
		for _, rr := range *ld.Referrers() {
			if sl, ok := rr.(*ssa.Slice); ok && sl.High == nil && (sl.Low == nil || isConstN(sl.Low, 0)) {
				uses = append(uses, referrersOf(sl)...)
			}
		}
		for _, rr := range uses {
			if ci, ok := rr.(ssa.CallInstruction); ok && readLike(ci.Common()) {
				return true
			}
		}
	}
	return false
}

// readLike reports whether com calls a function or method whose name
// starts with Read (Read, ReadFrom, ReadFull, ReadAt, ReadMsgUDP...).
func readLike(com *ssa.CallCommon) bool {
	name := ""
	if m := com.Method; m != nil {
		name = m.Name()
	} else if g := com.StaticCallee(); g != nil {
		name = g.Name()
	}
	return len(name) >= 4 && name[:4] == "Read"
}

// restoresBefore reports whether fn sets the put buffer's length back to
// its capacity (*b = (*b)[:cap(*b)]) somewhere that may run before p.
func restoresBefore(fn *ssa.Function, p *putSite) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !isPtrToByteSlice(st.Addr.Type()) || !mayPrecede(st, p.instr) {
				continue
			}
			if sl, ok := st.Val.(*ssa.Slice); ok && loadOf(sl.X, st.Addr) && fullLength(sl.High, st.Addr) {
				return true
			}
		}
	}
	return false
}
