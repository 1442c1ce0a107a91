package poolvet

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// checkCloseAgain reports a Put in a Close method of the receiver itself,
// or of memory that the receiver still holds afterwards, when Close changes
// nothing in the receiver: a second Close puts the same object again. Callers are not
// supposed to close twice (io.Closer leaves it undefined), but they do:
// net/http may close a request body more than once
// (lightstep/lightstep-tracer-go#75, mailru/easyjson#103). The check runs
// only for types the package converts to an interface, that is, whose
// Close other code calls.
func (c *checker) checkCloseAgain(fn *ssa.Function, puts []putSite) {
	c.checkCloseFromTwo(fn, puts)
	if fn.Name() != "Close" || fn.Signature.Recv() == nil || fn.Signature.Params().Len() != 0 || len(fn.Params) != 1 {
		return
	}
	recv := fn.Params[0]
	if _, ok := recv.Type().Underlying().(*types.Pointer); !ok || !c.boxed(recv.Type(), false) {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.field || p.param < 0 || p.param >= len(p.args) || p.key.v != recv || p.key.cell || p.cond {
			continue
		}
		if hasMethod(recv.Type(), "Read") && c.boxed(recv.Type(), true) && !guardedByState(p.instr.Block(), recv) {
			// r.pool.Put(r): the receiver itself, when it is a reader
			// handed out as something to close (yarpc/yarpc-go#2508's
			// io.ReadCloser). A reader is closed by whoever reaches EOF
			// (a gRPC or HTTP adapter) and again by its owner; a writer
			// is closed once by its owner, as gRPC's compressors are,
			// and a reader handed out as a plain io.Reader (gRPC's gzip
			// decompressor) is closed only by code that knows it. What
			// Close stores does not matter (*br = BodyReader{} before
			// the Put, lesismal/nbio fd8d727): only a branch on the
			// receiver's state before the Put makes a second Close
			// different.
			c.report(checkDoublePut, p.instr.Pos(), nil,
				"Close puts its receiver %s back into the pool with no check of its state first: a second Close (net/http, for one, may close a body twice) puts it again; make Close run once (a closed flag checked first), or hand out a handle that is not pooled",
				recv.Name())
			return
		}
	}
	isPut := map[ssa.Instruction]bool{}
	for i := range puts {
		isPut[puts[i].instr] = true
	}
	if changesReceiver(fn, recv, isPut) {
		return
	}
	// Each field it puts is put again (buildbuddy-io/buildbuddy#10760's
	// read and compress buffers).
	done := map[int]bool{}
	for i := range puts {
		p := &puts[i]
		if p.field || p.param < 0 || p.param >= len(p.args) {
			continue
		}
		fa, ok := heldBy(p.args[p.param], recv)
		if !ok || done[fa.Field] {
			continue
		}
		done[fa.Field] = true
		c.report(checkDoublePut, p.instr.Pos(), nil,
			"Close puts %s back into the pool but leaves it in the receiver and changes nothing else: a second Close (net/http, for one, may close a body twice) puts it again; clear %s after the Put, or make Close run once",
			c.objName(p), fieldName(fa))
	}
}

// boxed reports whether some function of the package converts a value of
// type t to an interface, other than to put it into a pool; with closer
// set, to an interface that has a Close method (io.ReadCloser, net.Conn):
// code that holds it is expected to close it.
func (c *checker) boxed(t types.Type, closer bool) bool {
	if c.boxedTypes == nil {
		c.boxedTypes = map[types.Type]bool{}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if mi, ok := instr.(*ssa.MakeInterface); ok && !c.onlyPut(mi) {
						c.boxedTypes[mi.X.Type()] = c.boxedTypes[mi.X.Type()] || hasMethod(mi.Type(), "Close")
					}
				}
			}
		}
	}
	for bt, withClose := range c.boxedTypes {
		if types.Identical(bt, t) && (withClose || !closer) {
			return true
		}
	}
	return false
}

// onlyPut reports whether the interface value mi is only given to Puts
// (pool.Put(r) boxes r, but hands it to no code that would close it).
func (c *checker) onlyPut(mi *ssa.MakeInterface) bool {
	refs := mi.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		ci, ok := r.(ssa.CallInstruction)
		if !ok {
			return false
		}
		ce, ok := c.calleeOf(ci.Common())
		if !ok || ce.prim == nil || ce.prim.role != rolePut {
			return false
		}
	}
	return true
}

// checkCloseFromTwo reports the Puts of a close method (handleClose,
// closeConn) of fields its receiver keeps, when two functions of the
// package call it and nothing in it checks the receiver's state before the
// Puts: a connection closed by its read path and again by its write path
// puts its buffers twice (Allenxuxu/gev 873b775).
func (c *checker) checkCloseFromTwo(fn *ssa.Function, puts []putSite) {
	// Close itself is left to the rules above and to its callers' Puts.
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Name() == "Close" || !strings.Contains(strings.ToLower(fn.Name()), "close") {
		return
	}
	recv := fn.Params[0]
	if _, ok := recv.Type().Underlying().(*types.Pointer); !ok || len(c.callersOf(fn)) < 2 {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.cond || p.field || p.param < 0 || p.param >= len(p.args) || p.deferred {
			continue
		}
		fa, ok := heldBy(p.args[p.param], recv)
		if !ok || storesTo(fn, fa) || guardedByState(p.instr.Block(), recv) {
			continue
		}
		c.report(checkDoublePut, p.instr.Pos(), nil,
			"%s puts %s back into the pool but leaves it in the receiver, with no check of the receiver's state first, and both %s call it: a second close puts it again; clear %s after the Put, or return early once closed",
			fn.Name(), c.objName(p), joinNames(c.callersOf(fn)[:2]), fieldName(fa))
	}
}

// callersOf returns the names of the functions of the package that call
// fn (other than fn itself), in the order of the package's functions.
func (c *checker) callersOf(fn *ssa.Function) []string {
	var out []string
	var last *ssa.Function
	for _, ci := range c.callSitesOf(fn) {
		if g := ci.Parent(); g != fn && g != last {
			out = append(out, displayName(g))
			last = g
		}
	}
	return out
}

// callSitesOf returns the static calls of fn in the functions of the
// package, in the order of the package's functions; the table is built on
// first use.
func (c *checker) callSitesOf(fn *ssa.Function) []ssa.CallInstruction {
	if c.callSites == nil {
		c.callSites = map[*ssa.Function][]ssa.CallInstruction{}
		for _, g := range c.funcs {
			for _, b := range g.Blocks {
				for _, instr := range b.Instrs {
					if ci, ok := instr.(ssa.CallInstruction); ok {
						if callee := ci.Common().StaticCallee(); callee != nil {
							c.callSites[callee] = append(c.callSites[callee], ci)
						}
					}
				}
			}
		}
	}
	return c.callSites[fn]
}

// guardedByState reports whether a branch on the state of recv (a load of
// one of its fields, or a call given one, such as a CompareAndSwap of
// &r.closed) decides whether block b is reached.
func guardedByState(b *ssa.BasicBlock, recv *ssa.Parameter) bool {
	var reads func(v ssa.Value, depth int) bool
	reads = func(v ssa.Value, depth int) bool {
		if depth > 6 {
			return false
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			return x.X == recv || reads(x.X, depth+1)
		case *ssa.UnOp:
			return reads(x.X, depth+1)
		case *ssa.BinOp:
			return reads(x.X, depth+1) || reads(x.Y, depth+1)
		case *ssa.Call:
			for _, a := range x.Call.Args {
				if reads(a, depth+1) {
					return true
				}
			}
		}
		return false
	}
	for d := b.Idom(); d != nil; d = d.Idom() {
		ifi, ok := lastInstr(d).(*ssa.If)
		if !ok || !reads(ifi.Cond, 0) {
			continue
		}
		// A loop over a field (range r.bufs) reaches b either way.
		for _, s := range d.Succs {
			if !reachesFrom([]*ssa.BasicBlock{s}, b) {
				return true
			}
		}
	}
	return false
}

// heldBy returns the field of recv through which v, the object a Close
// puts, is reached: v is the field's value (r.buf), an element of it
// (range r.bufs), or part of an embedded value.
func heldBy(v ssa.Value, recv *ssa.Parameter) (*ssa.FieldAddr, bool) {
	v = rootOf(v).v
	for i := 0; v != nil && i < 8; i++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil, false
			}
			v = x.X
		case *ssa.IndexAddr:
			v = x.X
		case *ssa.Index:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.FieldAddr:
			if x.X == recv {
				return x, true
			}
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return nil, false
		}
	}
	return nil, false
}

// changesReceiver reports whether fn may change the state of recv, other
// than through the Put calls: a store into a field of it (r.buf = nil,
// r.closed = true), or a call that is given recv or the address of one of
// its fields (r.once.Do(...), r.release()). A Close that changes nothing
// does the same thing each time it is called.
func changesReceiver(fn *ssa.Function, recv *ssa.Parameter, isPut map[ssa.Instruction]bool) bool {
	rooted := func(v ssa.Value) bool {
		for i := 0; v != nil && i < 8; i++ {
			if v == recv {
				return true
			}
			switch x := v.(type) {
			case *ssa.FieldAddr:
				v = x.X
			case *ssa.IndexAddr:
				if _, ok := x.X.Type().Underlying().(*types.Pointer); !ok {
					return false // an element of a slice the receiver points to
				}
				v = x.X // an element of an array field
			default:
				return false
			}
		}
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if rooted(x.Addr) {
					return true
				}
			case ssa.CallInstruction:
				if isPut[instr] {
					continue
				}
				com := x.Common()
				vals := append([]ssa.Value{com.Value}, com.Args...)
				if mc, ok := com.Value.(*ssa.MakeClosure); ok {
					vals = append(vals, mc.Bindings...)
				}
				for _, v := range vals {
					if v != nil && rooted(v) {
						return true
					}
				}
			}
		}
	}
	return false
}

// hasMethod reports whether the method set of t has a method called name.
func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// elemField returns, for a load of an element of a slice that is itself
// loaded from a field (*(&(*x.f)[i])), the struct type and the field's
// address, or nil.
func elemField(v ssa.Value) (*types.TypeName, *ssa.FieldAddr) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, nil
	}
	ia, ok := ld.X.(*ssa.IndexAddr)
	if !ok {
		return nil, nil
	}
	return elemAddrField(ia)
}

// elemAddrField is elemField for the address of the element.
func elemAddrField(ia *ssa.IndexAddr) (*types.TypeName, *ssa.FieldAddr) {
	sl, ok := ia.X.(*ssa.UnOp)
	if !ok || sl.Op != token.MUL {
		return nil, nil
	}
	fa, ok := sl.X.(*ssa.FieldAddr)
	if !ok {
		return nil, nil
	}
	n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
	if !ok {
		return nil, nil
	}
	return n.Origin().Obj(), fa
}

// checkSharedElems reports a Put, in a loop over the elements of a slice
// field, of an element when some function of the package copies one element
// of that field into another (c.columns[dst] = c.columns[src]): two
// elements can then be the same object, and the loop puts it twice
// (pingcap/tidb#29809: Chunk.MakeRef, then recycle).
func (c *checker) checkSharedElems(p *putSite) {
	if p.cond || p.field || p.key.cell || !inLoop(p.instr.Block()) {
		return
	}
	tn, fa := elemField(p.key.v)
	if tn == nil {
		return
	}
	for _, fn := range c.funcs {
		// copies: element-to-element stores within the field; resliced:
		// fn stores the field itself.
		var copies []*ssa.Store
		resliced := false
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if sf, ok := st.Addr.(*ssa.FieldAddr); ok && sf.Field == fa.Field && types.Identical(sf.X.Type(), fa.X.Type()) {
					resliced = true
				}
				if tn2, fa2 := elemField(st.Val); tn2 != tn || fa2.Field != fa.Field {
					continue
				}
				ia, ok := st.Addr.(*ssa.IndexAddr)
				if !ok {
					continue
				}
				// The destination: an element of the same field.
				if tn2, fa2 := elemAddrField(ia); tn2 == tn && fa2.Field == fa.Field {
					copies = append(copies, st)
				}
			}
		}
		// Two copies are a swap (s[i], s[j] = s[j], s[i]); a copy and a
		// reslice, a removal (s[i] = s[n-1]; s = s[:n-1]): neither leaves
		// two elements the same.
		if len(copies) == 1 && !resliced {
			st := copies[0]
			c.report(checkDoublePut, p.instr.Pos(), nil,
				"%s may be put twice: %s (line %d) copies one element of %s into another, so two elements can be the same object, and this loop puts every element; put each distinct object once",
				c.objName(p), displayName(fn), c.line(st.Pos()), tn.Name()+"."+fieldName(fa))
			return
		}
	}
}
