package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A sync.Pool of []byte values whose users copy or read into what Get
// returns by its length, where a Put gives back a buffer cut to the length
// of its last use (b[:n], or what a channel carries when the package sends
// such cuts on it): the next user gets a shorter buffer and silently loses
// the end of its data (yyyar/gobetween#208's UDP packets). The *[]byte form
// is checkShortenedPut's. Reported as noreset at the Put.

// checkShortenedValuePut reports such a Put p.
func (c *checker) checkShortenedValuePut(fn *ssa.Function, p *putSite) {
	if p.prim != syncPut || len(p.args) == 0 {
		return
	}
	mi, ok := p.arg.(*ssa.MakeInterface)
	if !ok || !isByteSlice(mi.X.Type()) {
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	cut := cutSlice(mi.X)
	if cut == nil {
		cut = c.cutFromChan(mi.X)
	}
	if cut == nil {
		return
	}
	byLen := false
	for _, pg := range c.poolGets(id) {
		for _, v := range getValues(pg.g.call) {
			if _, ok := v.(*ssa.TypeAssert); ok && fillsByLen(v) {
				byLen = true
			}
		}
	}
	if !byLen {
		return
	}
	c.report(checkNoReset, p.instr.Pos(), nil,
		"%s goes back to the pool cut to the length of its last use (line %d), while the pool's users copy or read into the buffer by its length: the next one gets a shorter buffer and loses the end of its data; put back the whole buffer (b[:cap(b)])",
		c.objName(p), c.line(cut.Pos()))
}

// cutSlice returns v when it is b[:n] or b[0:n] of a byte slice with a
// bound that is not len(b) or cap(b), or nil.
func cutSlice(v ssa.Value) *ssa.Slice {
	sl, ok := v.(*ssa.Slice)
	if !ok || sl.High == nil || sl.Low != nil && !isConstN(sl.Low, 0) || !isByteSlice(sl.X.Type()) {
		return nil
	}
	if sizeCallOf(sl.High, sl.X, "cap") || sizeCallOf(sl.High, sl.X, "len") || !dataLength(sl.High) {
		return nil // b[:cap(b)], b[:len(b)], b[:N] or b[:srv.UDPSize]: a fixed size
	}
	return sl
}

// dataLength reports whether n is a length the data decided: what copy
// returned (n := copy(dup, pkt)), the first result of a call with several
// (n, _ := conn.Read(b)), or 0 (a buffer emptied for appending).
func dataLength(n ssa.Value) bool {
	switch x := stripConv(n).(type) {
	case *ssa.Call:
		return isBuiltin(&x.Call, "copy")
	case *ssa.Extract:
		return x.Index == 0
	case *ssa.Const:
		return isConstN(x, 0)
	}
	return false
}

// sizeCallOf reports whether v is the builtin name (len or cap) of b.
func sizeCallOf(v, b ssa.Value, name string) bool {
	call, ok := stripConv(v).(*ssa.Call)
	return ok && isBuiltin(&call.Call, name) && len(call.Call.Args) == 1 && call.Call.Args[0] == b
}

// cutFromChan returns, for v received from a channel held in a struct
// field (buf := <-s.out, or a select case receiving from it), a cut byte
// slice that the package sends on a channel held in that same field, or
// nil. Channels in package-level variables are not followed.
func (c *checker) cutFromChan(v ssa.Value) *ssa.Slice {
	ref, ok := chanKeyOf(recvChan(v))
	if !ok || ref.g != nil {
		return nil
	}
	cutOn := func(sent, on ssa.Value) *ssa.Slice {
		if k, ok := chanKeyOf(on); ok && k == ref {
			return cutSlice(sent)
		}
		return nil
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Send:
					if sl := cutOn(x.X, x.Chan); sl != nil {
						return sl
					}
				case *ssa.Select:
					for _, st := range x.States {
						if st.Dir != types.SendOnly {
							continue
						}
						if sl := cutOn(st.Send, st.Chan); sl != nil {
							return sl
						}
					}
				}
			}
		}
	}
	return nil
}

// fillsByLen reports whether the byte slice v, as Get returned it, is
// filled by its length before anything re-slices it: the destination of a
// copy, or the buffer of a Read-like call.
func fillsByLen(v ssa.Value) bool {
	if v.Referrers() == nil {
		return false
	}
	for _, r := range *v.Referrers() {
		ci, ok := r.(ssa.CallInstruction)
		if !ok {
			continue
		}
		com := ci.Common()
		if isBuiltin(com, "copy") && len(com.Args) == 2 && com.Args[0] == v {
			return true
		}
		if readLike(com) {
			for _, a := range com.Args {
				if a == v {
					return true
				}
			}
		}
	}
	return false
}
