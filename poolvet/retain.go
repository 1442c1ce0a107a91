package poolvet

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Retained references: a pooled object that a user points at memory it was
// passed (a request's context.Context, the caller's reader, a value to
// cache) keeps that memory, and all it reaches, alive while the object sits
// idle in the pool, and the next user may find it there
// (maximhq/bifrost#4871, erigontech/erigon#22410, kpango/gache#154). The
// analysis below finds, for each sync.Pool of the package, the fields in
// which users store, after Get, a value of pointer shape that came from
// one of their parameters (not the receiver: a back pointer to the owner is
// long-lived anyway), and reports the Puts into that pool that leave such a
// field set.

// An attach is a value that a user stores in a field of a pooled object.
type attach struct {
	field int       // the field it is stored in
	what  string    // for the message: "field Context"
	ctx   bool      // the value is a context.Context
	zero  bool      // an attach by gzip.Reader.Reset, let go of only by zeroing the reader
	pos   token.Pos // where
}

// attached returns what the users of the pool with the given poolID attach
// to its objects; built for the whole package on first use.
func (c *checker) attached(id any) []attach {
	if c.attaches == nil {
		c.attaches = map[any][]attach{}
		for _, fn := range c.funcs {
			_, gets := c.sites(fn)
			for _, g := range gets {
				if g.resets {
					continue
				}
				gid := c.getPoolID(g)
				if gid == nil {
					continue
				}
				c.attaches[gid] = append(c.attaches[gid], c.attachesIn(fn, g.call)...)
			}
		}
	}
	return c.attaches[id]
}

// getPoolID returns the poolID of the sync.Pool a Get takes from: its
// argument, or, for a getter of the package (getRequest()), the pool of
// the one sync.Pool Get in it.
func (c *checker) getPoolID(g getSite) any {
	if g.prim == syncGet && len(g.args) > 0 {
		return poolID(g.args[0])
	}
	if g.prim != nil {
		return nil
	}
	callee := g.call.Call.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg {
		return nil
	}
	_, inner := c.sites(callee)
	var id any
	for _, ig := range inner {
		if ig.prim != syncGet || len(ig.args) == 0 {
			continue
		}
		gid := poolID(ig.args[0])
		if gid == nil || id != nil && id != gid {
			return nil
		}
		id = gid
	}
	return id
}

// attachesIn returns the attaches in fn to the object got by get: stores
// of a parameter (not the receiver) holding pointers into one of its fields.
func (c *checker) attachesIn(fn *ssa.Function, get ssa.Value) []attach {
	var out []attach
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok {
				com := &call.Call
				// The caller's writer, or one whose memory fn returns
				// (gw.Reset(res); ...; return res.Bytes(),
				// xitongsys/parquet-go#188).
				if attachResets[calleeName(com)] && len(com.Args) == 2 && c.flowsFrom(com.Args[0], get) && (fromCaller(com.Args[1]) || c.returnedBy(fn, com.Args[1]) || c.gotFromPool(fn, com.Args[1])) {
					what := "the " + com.Args[1].Type().String() + " given to Reset"
					if c.gotFromPool(fn, com.Args[1]) {
						what += " (an object of another pool)"
					}
					out = append(out, attach{resetField, what, false, false, call.Pos()})
				}
				// A gzip.Reader Reset onto a reader over the caller's
				// bytes holds that whole payload while it waits in the
				// pool (cockroachdb/replicator#1080: zero it first,
				// *zr = gzip.Reader{}). A reader over a stream is left
				// out: what it pins is small once drained.
				if calleeName(com) == "compress/gzip.Reader.Reset" && len(com.Args) == 2 && c.flowsFrom(com.Args[0], get) && overCallerBytes(com.Args[1]) {
					out = append(out, attach{resetField, "the reader over the caller's bytes given to Reset", false, true, call.Pos()})
				}
				// A method of the package that stores a parameter into a
				// field of its receiver (iter.ResetBytes(data): iter.buf =
				// data, json-iterator/go#387).
				if ce, ok := c.calleeOf(com); ok && ce.sum != nil && len(ce.sum.retainsIn) > 0 {
					args := callArgs(com)
					// Not a sub-object's method (c.writer.reset(w)): its
					// field indexes are its own.
					if len(args) > 0 && !isFieldAddr(args[0]) && c.flowsFrom(args[0], get) {
						for i := range ce.sum.retainsIn {
							if i < len(args) && fromCaller(args[i]) && hasPointers(args[i].Type()) {
								if f := storedField(com.StaticCallee(), i); f != nil {
									out = append(out, attach{f.Field, "field " + fieldName(f) + " (set by " + com.StaticCallee().Name() + ")", false, false, call.Pos()})
								}
							}
						}
					}
				}
				continue
			}
			x, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := x.Addr.(*ssa.FieldAddr)
			if !ok || !fromCaller(x.Val) || !hasPointers(x.Val.Type()) {
				continue
			}
			// f.ann of an embedded struct: the object's field is the
			// outer one (f.FmtCtx), cockroachdb/cockroach#21306; so is
			// the field of a sub-object it points to (rctx.Option.Context,
			// goccy/go-json#499).
			outer := ownerField(fa)
			if !c.flowsFrom(outer.X, get) {
				continue
			}
			out = append(out, attach{outer.Field, "field " + fieldName(fa), isNamed(x.Val.Type(), "context", "Context"), false, x.Pos()})
		}
	}
	return out
}

// storedField returns the field of its receiver that g stores its
// parameter i into as it is, or nil.
func storedField(g *ssa.Function, i int) *ssa.FieldAddr {
	if g == nil || i >= len(g.Params) || len(g.Params) == 0 {
		return nil
	}
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || unslice(st.Val) != g.Params[i] {
				continue
			}
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.X == g.Params[0] {
				return fa
			}
		}
	}
	return nil
}

// returnedBy reports whether fn returns memory of the object v.
func (c *checker) returnedBy(fn *ssa.Function, v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if _, ok := v.(*ssa.Alloc); !ok {
		return false // a fresh object: new(bytes.Buffer), &bytes.Buffer{}
	}
	al := c.aliasesOf(fn, objKey{v, false}, true)
	for _, b := range fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok {
			for _, r := range ret.Results {
				if al[r] {
					return true
				}
			}
		}
	}
	return false
}

// overCallerBytes reports whether v is a reader made over a caller's
// bytes or string: bytes.NewReader(data), strings.NewReader(s).
func overCallerBytes(v ssa.Value) bool {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return false
	}
	switch calleeName(&call.Call) {
	case "bytes.NewReader", "strings.NewReader", "bytes.NewBuffer", "bytes.NewBufferString":
		return fromCaller(call.Call.Args[0])
	}
	return false
}

// fromParam reports whether v is a parameter of its function, possibly
// converted or sliced: memory that belongs to the caller.
func fromParam(v ssa.Value) bool { return paramOf(v) != nil }

// paramOf returns the parameter that v is, through conversions and
// slicing, or nil.
func paramOf(v ssa.Value) *ssa.Parameter {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.Parameter:
			return x
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Slice:
			v = x.X
		case *ssa.TypeAssert:
			v = x.X // w.(io.Writer)
		case *ssa.Extract:
			ta, ok := x.Tuple.(*ssa.TypeAssert)
			if !ok || x.Index != 0 {
				return nil
			}
			v = ta.X // iw, ok := w.(io.Writer)
		default:
			return nil
		}
	}
	return nil
}

// attachResets are standard-library Reset methods that point the object
// at their argument: the writer or reader a bufio or compress object wraps
// (erigontech/erigon#19417: "put must call buf.Reset(nil)"). Not
// gzip.Reader.Reset, which reads a header from its argument at once: there
// is no cheap way to let go of the reader.
var attachResets = map[string]bool{
	"bufio.Writer.Reset":          true,
	"bufio.Reader.Reset":          true,
	"compress/gzip.Writer.Reset":  true,
	"compress/flate.Writer.Reset": true,
	"compress/zlib.Writer.Reset":  true,
}

// gotFromPool reports whether v is an object fn got from a pool (a buffer
// of another pool that a pooled writer is Reset onto: tinode/chat#988).
func (c *checker) gotFromPool(fn *ssa.Function, v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		case *ssa.TypeAssert:
			v = x.X
			continue
		case *ssa.UnOp:
			// a variable a closure captured: what was stored into it
			if a, ok := x.X.(*ssa.Alloc); ok && x.Op == token.MUL {
				for _, st := range localStores(a) {
					if c.gotFromPool(fn, st.Val) {
						return true
					}
				}
				return false
			}
		}
		break
	}
	_, gets := c.sites(fn)
	for _, g := range gets {
		if ssa.Value(g.call) == v {
			return true
		}
	}
	return false
}

// untouchedBefore reports whether no instruction that can run before put
// writes into the object of al or hands it to a call: its uses on the way
// are reads of its fields and comparisons.
func untouchedBefore(al map[ssa.Value]bool, put ssa.Instruction) bool {
	for v := range al {
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if r == put || !reachableFrom(r, put) {
				continue
			}
			switch x := r.(type) {
			case *ssa.FieldAddr:
				// a field address used only for loads
				if frefs := x.Referrers(); frefs != nil {
					for _, fr := range *frefs {
						if ld, ok := fr.(*ssa.UnOp); !ok || ld.Op != token.MUL {
							if reachableFrom(fr, put) {
								return false
							}
						}
					}
				}
			case *ssa.BinOp, *ssa.If, *ssa.DebugRef, *ssa.MakeInterface, *ssa.TypeAssert, *ssa.Extract, *ssa.ChangeType:
			case *ssa.UnOp:
				if x.Op != token.MUL {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// localStores returns the stores into the local variable a.
func localStores(a *ssa.Alloc) []*ssa.Store {
	var out []*ssa.Store
	if refs := a.Referrers(); refs != nil {
		for _, r := range *refs {
			if st, ok := r.(*ssa.Store); ok && st.Addr == a {
				out = append(out, st)
			}
		}
	}
	return out
}

// resetField is the field index of an attach made by an attachResets call.
const resetField = -1

// fromCaller reports whether v is, as fromParam says, a parameter of its
// function that is not its receiver.
func fromCaller(v ssa.Value) bool {
	p := paramOf(v)
	return p != nil && !isReceiver(p)
}

// checkRetainPut reports a Put into a sync.Pool that leaves set a field in
// which a user of the pool stored a context.
func (c *checker) checkRetainPut(fn *ssa.Function, p *putSite) {
	if p.prim != syncPut || p.resets || p.field || p.key.cell || len(p.args) == 0 || isNil(p.key.v) {
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	as := c.attached(id)
	if len(as) == 0 {
		return
	}
	detached := map[int]bool{}
	al := c.aliasesOf(fn, p.key, true)
	if !p.deferred && c.gotFromPool(fn, p.key.v) && untouchedBefore(al, p.instr) {
		// Got and put straight back, only looked at on the way
		// (Yiling-J/theine-go's setShard: the entry of the same key goes
		// back): it holds what it held when the pool gave it out.
		return
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if c.flowsFrom(x.Addr, p.key.v) {
					return // *obj = T{}
				}
				if fa, ok := x.Addr.(*ssa.FieldAddr); ok && !fromParam(x.Val) {
					if f := fieldOf(fa, func(v ssa.Value) bool { return al[v] || sameLoc(v, p.key.v) }); f != nil {
						detached[f.Field] = true
					}
				}
			case ssa.CallInstruction:
				com := x.Common()
				// A function of the package that clears fields of the
				// object it is passed (t.zero() setting t.ctx = nil).
				if g := com.StaticCallee(); g != nil && g.Pkg != nil && g.Pkg.Pkg == c.pass.Pkg && len(g.Params) == len(com.Args) {
					// Only when given the object itself: the fields of a
					// sub-object (c.writermem.reset(w)) are not the
					// object's fields of the same index.
					whole := func(a ssa.Value) bool { return partOf(a, al) && types.Identical(a.Type(), p.key.v.Type()) }
					for i, a := range com.Args {
						if whole(a) {
							for f := range clearedFields(g, g.Params[i]) {
								detached[f] = true
							}
							continue
						}
						// A method of a sub-object that clears fields of it
						// (qw.n.Reset() setting n.w = nil) clears what the
						// object holds through that field.
						if fa, ok := a.(*ssa.FieldAddr); ok && i < len(g.Params) {
							if outer := outerField(fa); al[outer.X] && len(clearedFields(g, g.Params[i])) > 0 {
								detached[outer.Field] = true
							}
						}
					}
					// c.reset(nil, nil): a method that stores its
					// parameters into fields of its receiver, given values
					// that are not the caller's, replaces what they held.
					if len(com.Args) > 0 && whole(com.Args[0]) {
						for j := 1; j < len(com.Args); j++ {
							if fromParam(com.Args[j]) {
								continue
							}
							if f := storedField(g, j); f != nil {
								detached[f.Field] = true
							}
						}
					}
				}
				// Reset(nil) or Reset(io.Discard) of a bufio or compress
				// object lets go of what it wrapped; Reset(w) of the
				// caller's w attaches it again.
				if attachResets[calleeName(com)] && len(com.Args) == 2 && (partOf(com.Args[0], al) || sameLoc(com.Args[0], p.key.v)) {
					if !fromParam(com.Args[1]) && !c.returnedBy(fn, com.Args[1]) && !c.gotFromPool(fn, com.Args[1]) {
						detached[resetField] = true
					}
					continue
				}
				if calleeName(com) == "compress/gzip.Reader.Reset" && len(com.Args) == 2 && overCallerBytes(com.Args[1]) {
					continue // the attach itself
				}
				// Reset(), clear(obj), a reset* helper: assume it clears,
				// unless it is a function of the package, whose stores
				// say what it clears (a Reset that forgets a field).
				for i, a := range com.Args {
					// clear of a field's slice clears that slice only.
					if isClearBuiltin(com) && a == p.key.v {
						return
					}
					if partOf(a, al) && isResetCallee(com) {
						g := com.StaticCallee()
						whole := g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg || len(g.Blocks) == 0 || i >= len(g.Params) || clearsAll(g, g.Params[i])
						if fa, ok := a.(*ssa.FieldAddr); ok && a != p.key.v {
							// f.Buffer.Reset() resets the field, not f.
							if outer := outerField(fa); al[outer.X] {
								if whole {
									detached[outer.Field] = true
								}
								continue
							}
						}
						if whole {
							return
						}
					}
				}
				if com.IsInvoke() && partOf(com.Value, al) && isResetName(com.Method.Name()) {
					return
				}
			}
		}
	}
	// Attaches made in fn first: the message names the one here.
	inFn := func(a attach) bool {
		return fn.Syntax() != nil && a.pos >= fn.Syntax().Pos() && a.pos < fn.Syntax().End()
	}
	as = slices.Clone(as)
	slices.SortStableFunc(as, func(a, b attach) int {
		switch {
		case inFn(a) && !inFn(b):
			return -1
		case inFn(b) && !inFn(a):
			return 1
		}
		return 0
	})
	for _, a := range as {
		if detached[a.field] {
			continue
		}
		if a.ctx {
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool still holding the context in %s (set at %s): while it waits in the pool it keeps the request's context and all it reaches alive; set it to nil before the Put",
				c.objName(p), a.what, c.shortPos(a.pos))
			return
		}
		fix := "clear the field before the Put"
		if a.zero {
			fix = "zero it before the Put (*zr = gzip.Reader{})"
		} else if a.field == resetField {
			fix = "let go of it before the Put (Reset(nil))"
		}
		c.report(checkNoReset, p.instr.Pos(), nil,
			"%s goes back to the pool still holding, in %s, what a user was passed or returned (set at %s): while it waits in the pool it keeps that memory alive, and the next user finds it there; %s",
			c.objName(p), a.what, c.shortPos(a.pos), fix)
		return
	}
}

// outerField returns, for the address of a field of a struct embedded or
// held by value in another (&f.FmtCtx.ann), the address of the outermost
// such field (&f.FmtCtx); otherwise fa.
func outerField(fa *ssa.FieldAddr) *ssa.FieldAddr {
	for i := 0; i < 8; i++ {
		x, ok := fa.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		fa = x
	}
	return fa
}

// ownerField is outerField, going on through loads of pointer fields
// (*(&rctx.Option)).Context gives rctx.Option.
func ownerField(fa *ssa.FieldAddr) *ssa.FieldAddr {
	for i := 0; i < 8; i++ {
		fa = outerField(fa)
		ld, ok := fa.X.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			break
		}
		x, ok := ld.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		fa = x
	}
	return fa
}

// fieldOf returns the field of the object (obj tells its aliases) that
// the address fa is in: fa itself (d.src, d an alias), or the field that
// holds the struct fa is in (r.inner.f, held by value or through a
// pointer); nil if fa is not reached from the object.
func fieldOf(fa *ssa.FieldAddr, obj func(ssa.Value) bool) *ssa.FieldAddr {
	for i := 0; i < 8; i++ {
		fa = outerField(fa)
		if obj(fa.X) {
			return fa
		}
		ld, ok := fa.X.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			return nil
		}
		x, ok := ld.X.(*ssa.FieldAddr)
		if !ok {
			return nil
		}
		fa = x
	}
	return nil
}

// clearedFields returns the fields of the object prm that fn stores
// something into that is not one of its parameters (nil, a zero value).
func clearedFields(fn *ssa.Function, prm *ssa.Parameter) map[int]bool {
	out := map[int]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok && !fromParam(st.Val) {
				if fa = ownerField(fa); fa.X != prm {
					continue
				}
				out[fa.Field] = true
			}
		}
	}
	return out
}

// clearsAll reports whether fn overwrites the whole object prm points to
// (*prm = T{}).
func clearsAll(fn *ssa.Function, prm *ssa.Parameter) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == ssa.Value(prm) {
				return true
			}
		}
	}
	return false
}

// isResetCallee reports whether a static call's function name says it
// resets or clears its argument.
func isResetCallee(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	return fn != nil && isResetName(fn.Name())
}

// isClearBuiltin reports whether a call is the clear builtin.
func isClearBuiltin(com *ssa.CallCommon) bool { return isBuiltin(com, "clear") }

// isBuiltin reports whether com calls the builtin function name.
func isBuiltin(com *ssa.CallCommon, name string) bool {
	b, ok := com.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

// isFieldAddr reports whether v is the address of a field.
func isFieldAddr(v ssa.Value) bool {
	_, ok := v.(*ssa.FieldAddr)
	return ok
}
