package poolvet

import (
	"go/token"
	"go/types"
	"math/bits"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Stale fields: a pooled struct comes back from Get with whatever its last
// user left in it. A field that a user reads before writing it (a sequence
// number, a timing that a failed request never sets) then carries the
// previous user's value (kettek/apng#13, easegress-io/easegress#614). The
// analysis below finds, for each sync.Pool of the package, the fields that
// some user reads before writing on some path after Get, and reports the
// Puts into that pool that leave those fields set.
//
// Only fields of basic types (numbers, strings, booleans) count: a slice,
// map or pointer field kept across uses is how pooled objects keep their
// buffers, and the code that reuses it reads it on purpose. A read whose
// value only decides a branch (if c.n == 0 { c.n = ... }) does not count
// either.

// fieldSet is a set of field indexes of one struct type; allFields is every
// field. Structs with more than 64 fields are not analysed.
type fieldSet uint64

const allFields = ^fieldSet(0)

// staleRead is a read of fields that were not written on some path.
type staleRead struct {
	fields fieldSet
	pos    token.Pos // where, in the function that took the object
}

// fieldUse is what a function does to the fields of one of its parameters:
// the fields it may read before writing them, those it writes on every
// path to a return, and those it writes on some path.
type fieldUse struct {
	reads  fieldSet
	writes fieldSet
	may    fieldSet
}

// staleFields returns the fields of pooled objects of the pool with the
// given poolID that a user reads before writing, with the position of one
// such read; built for the whole package on first use.
func (c *checker) staleFields(id any) (fieldSet, token.Pos) {
	if c.stale == nil {
		c.stale = map[any]staleRead{}
		written := c.writtenFields()
		for _, fn := range c.funcs {
			_, gets := c.sites(fn)
			for _, g := range gets {
				if g.prim != syncGet || g.resets || len(g.args) == 0 {
					continue
				}
				gid := poolID(g.args[0])
				if gid == nil {
					continue
				}
				obj, st := assertedStruct(g.call)
				if obj == nil {
					continue
				}
				mask := scalarFields(st, c.pass.Pkg) & written[derefType(obj.Type())]
				u, pos := c.fieldFlow(fn, obj, g.call, 0)
				reads := u.reads & mask
				if returned(obj) {
					// A getter or decoder that returns the object: its
					// callers read it next (grafana/mimir#12652's
					// Unmarshal, which sets CreatedTimestamp only when
					// present).
					r, rpos := c.staleThroughReturns(fn, u.writes, mask, 2)
					if reads == 0 && r != 0 {
						pos = rpos
					}
					reads |= r
				}
				r := staleRead{fields: reads, pos: pos}
				if r.fields != 0 {
					old := c.stale[gid]
					if old.fields == 0 {
						old.pos = r.pos
					}
					old.fields |= r.fields
					c.stale[gid] = old
				}
			}
		}
	}
	s := c.stale[id]
	return s.fields, s.pos
}

// staleThroughReturns returns the fields in mask that callers of fn, which
// returns a pooled object with the fields written set on every path, read
// before writing, following callers that return it too (depth more levels), and
// where the first such read is.
func (c *checker) staleThroughReturns(fn *ssa.Function, written, mask fieldSet, depth int) (fieldSet, token.Pos) {
	var reads fieldSet
	var pos token.Pos
	for _, cs := range c.callSitesOf(fn) {
		call, ok := cs.(*ssa.Call)
		if !ok || cs.Parent() == fn {
			continue
		}
		u, p := c.fieldFlow(cs.Parent(), call, call, 0)
		if r := u.reads & mask &^ written; r != 0 {
			if reads == 0 {
				pos = p
			}
			reads |= r
		}
		if depth > 0 && returned(call) {
			r, p := c.staleThroughReturns(cs.Parent(), written|u.writes, mask, depth-1)
			if reads == 0 && r != 0 {
				pos = p
			}
			reads |= r
		}
	}
	return reads, pos
}

// assertedStruct returns the value a Get's result is asserted to, when it
// is a pointer to a struct, and that struct.
func assertedStruct(call *ssa.Call) (ssa.Value, *types.Struct) {
	for _, ref := range *call.Referrers() {
		ta, ok := ref.(*ssa.TypeAssert)
		if !ok {
			continue
		}
		var v ssa.Value = ta
		if ta.CommaOk {
			v = nil
			for _, r := range *ta.Referrers() {
				if ex, ok := r.(*ssa.Extract); ok && ex.Index == 0 {
					v = ex
				}
			}
			if v == nil {
				return nil, nil
			}
		}
		st, ok := derefStruct(ta.AssertedType)
		if !ok || st.NumFields() > 64 {
			return nil, nil
		}
		return v, st
	}
	return nil, nil
}

// scalarFields returns the fields of st of basic type, but not
// unsafe.Pointer, and those of a struct type of pkg made of such fields.
func scalarFields(st *types.Struct, pkg *types.Package) fieldSet {
	var s fieldSet
	for i := 0; i < st.NumFields() && i < 64; i++ {
		if isScalar(st.Field(i).Type()) || scalarStruct(st.Field(i).Type(), pkg) {
			s |= 1 << i
		}
	}
	return s
}

// isScalar reports whether t is a basic type other than unsafe.Pointer.
func isScalar(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() != types.UnsafePointer
}

// scalarStruct reports whether t is a struct type of pkg (or unnamed)
// whose fields are all scalars: a record of numbers such as a series'
// metadata refs (cortexproject/cortex#7299), not a mutex or a type of
// another package.
func scalarStruct(t types.Type, pkg *types.Package) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != pkg {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if !isScalar(st.Field(i).Type()) {
			return false
		}
	}
	return true
}

// writtenFields returns, for each struct type, the fields that some code
// of the package stores into: a field never written keeps New's zero and
// cannot be stale.
func (c *checker) writtenFields() map[types.Type]fieldSet {
	out := map[types.Type]fieldSet{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.Field < 64 {
					out[derefType(fa.X.Type())] |= 1 << fa.Field
				}
			}
		}
	}
	return out
}

// fieldFlow follows the object obj (a value of fn, or a parameter) from the
// instruction after start (nil: the entry) with a must-write analysis of
// its fields over fn's control-flow graph: the state of a path is the set
// of fields written on it so far; where paths join, only fields written on
// all of them count. It returns the fields read on some path before being
// written (and where the first such read is), those written on every path
// to a return, and those written on some path.
func (c *checker) fieldFlow(fn *ssa.Function, obj ssa.Value, start ssa.Instruction, depth int) (fieldUse, token.Pos) {
	al := c.aliasesOf(fn, objKey{obj, false}, true)
	direct := map[ssa.Value]bool{obj: true}
	for v := range al {
		if c.flowsFrom(v, obj) {
			direct[v] = true
		}
	}
	var use fieldUse
	var firstRead token.Pos
	if len(fn.Blocks) == 0 {
		return fieldUse{writes: allFields}, token.NoPos
	}
	startBlock := fn.Blocks[0]
	startIdx := 0
	if start != nil {
		startBlock = start.Block()
		for i, instr := range startBlock.Instrs {
			if instr == start {
				startIdx = i + 1
			}
		}
	}
	in := map[*ssa.BasicBlock]fieldSet{startBlock: 0}
	retWrites := allFields
	returned := false
	// step applies one instruction to the state and records stale reads.
	step := func(instr ssa.Instruction, s fieldSet, record bool) fieldSet {
		switch x := instr.(type) {
		case *ssa.Store:
			if direct[x.Addr] {
				if record {
					use.may = allFields
				}
				return allFields // *obj = T{...}
			}
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok && direct[fa.X] && fa.Field < 64 {
				if record {
					use.may |= 1 << fa.Field
				}
				return s | 1<<fa.Field
			}
			// s.limit = n with limit a field of the embedded record
			// s.ssave: a write of ssave, as its nested reads are reads.
			if fa, ok := x.Addr.(*ssa.FieldAddr); ok {
				if outer, ok := fa.X.(*ssa.FieldAddr); ok && direct[outer.X] && outer.Field < 64 {
					if record {
						use.may |= 1 << outer.Field
					}
					return s | 1<<outer.Field
				}
			}
			if direct[x.Val] {
				return allFields // stored elsewhere: whoever holds it may write it
			}
		case *ssa.UnOp:
			if x.Op != token.MUL {
				break
			}
			var read fieldSet
			if direct[x.X] {
				read = allFields // the whole struct is read
			} else if fa, ok := x.X.(*ssa.FieldAddr); ok && direct[fa.X] && fa.Field < 64 && !onlyDecides(x) && !onlyEmptied(x) {
				read = 1 << fa.Field
			} else if fa, ok := x.X.(*ssa.FieldAddr); ok && !onlyDecides(x) {
				// ts.Metadata.HelpRef: a read of the field Metadata.
				if outer, ok := fa.X.(*ssa.FieldAddr); ok && direct[outer.X] && outer.Field < 64 {
					read = 1 << outer.Field
				}
			}
			if r := read &^ s; r != 0 && record {
				if use.reads&r != r && firstRead == token.NoPos {
					firstRead = x.Pos()
				}
				use.reads |= r
			}
		case ssa.CallInstruction:
			com := x.Common()
			passed := -1
			for i, a := range com.Args {
				if direct[a] {
					passed = i
				}
			}
			if com.IsInvoke() && direct[com.Value] {
				return allFields
			}
			if passed < 0 {
				break
			}
			callee := com.StaticCallee()
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || depth >= 3 ||
				len(callee.Params) != len(com.Args) || isResetName(callee.Name()) {
				return allFields // unknown code: assume it initialises the object
			}
			cu := c.paramFieldUse(callee, passed, depth+1)
			if record {
				use.may |= cu.may
			}
			if r := cu.reads &^ s; r != 0 && record {
				if use.reads&r != r && firstRead == token.NoPos {
					firstRead = x.Pos()
				}
				use.reads |= r
			}
			return s | cu.writes
		case *ssa.Send, *ssa.Go, *ssa.Defer:
			var ops [8]*ssa.Value
			for _, op := range instr.Operands(ops[:0]) {
				if direct[*op] {
					return allFields
				}
			}
		case *ssa.Return:
			if record {
				returned = true
				retWrites &= s
			}
		}
		return s
	}
	// enterState returns the state on the edge from pred into b: a phi of
	// b that merges the object with a fresh one makes the fresh path's
	// state complete.
	enterState := func(pred, b *ssa.BasicBlock, s fieldSet) fieldSet {
		idx := -1
		for i, p := range b.Preds {
			if p == pred {
				idx = i
			}
		}
		for _, instr := range b.Instrs {
			phi, ok := instr.(*ssa.Phi)
			if !ok {
				break
			}
			if direct[phi] && idx >= 0 && !direct[phi.Edges[idx]] {
				return allFields
			}
		}
		return s
	}
	run := func(b *ssa.BasicBlock, s fieldSet, record bool) fieldSet {
		instrs := b.Instrs
		if b == startBlock {
			instrs = instrs[startIdx:]
		}
		for _, instr := range instrs {
			s = step(instr, s, record)
		}
		return s
	}
	// Iterate to a fixed point: states only lose fields, so this ends.
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			s, ok := in[b]
			if !ok {
				continue
			}
			out := run(b, s, false)
			for _, succ := range b.Succs {
				if succ == startBlock && start != nil {
					continue // entering the Get's block again takes another object
				}
				ns := enterState(b, succ, out)
				if old, ok := in[succ]; !ok || old&ns != old {
					if ok {
						ns &= old
					}
					in[succ] = ns
					changed = true
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if s, ok := in[b]; ok {
			run(b, s, true)
		}
	}
	if returned {
		use.writes = retWrites
	}
	return use, firstRead
}

// paramFieldUse returns what fn does to the fields of its parameter i.
func (c *checker) paramFieldUse(fn *ssa.Function, i, depth int) fieldUse {
	key := paramKey{fn, i, depth}
	if u, ok := c.fieldUses[key]; ok {
		return u
	}
	if c.fieldUses == nil {
		c.fieldUses = map[paramKey]fieldUse{}
	}
	c.fieldUses[key] = fieldUse{writes: allFields} // while in progress (recursion)
	u, _ := c.fieldFlow(fn, fn.Params[i], nil, depth)
	c.fieldUses[key] = u
	return u
}

// paramKey names a parameter of a function, and the call depth at which
// its use was computed (deeper means fewer callees followed).
type paramKey struct {
	fn    *ssa.Function
	i     int
	depth int
}

// onlyEmptied reports whether v is used only re-sliced to length zero
// (c.treePath = c.treePath[0:0]): its value is dropped, not read.
func onlyEmptied(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		sl, ok := r.(*ssa.Slice)
		if !ok || sl.High == nil || !isConstN(sl.High, 0) {
			return false
		}
	}
	return true
}

// onlyDecides reports whether v is used only to decide a branch: in an if,
// directly or through comparisons and negations.
func onlyDecides(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil || len(*refs) == 0 {
		return false
	}
	for _, r := range *refs {
		switch x := r.(type) {
		case *ssa.If, *ssa.DebugRef:
		case *ssa.BinOp:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if !onlyDecides(x) {
					return false
				}
			default:
				return false
			}
		case *ssa.UnOp:
			if x.Op != token.NOT || !onlyDecides(x) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// checkStalePut reports a Put into a sync.Pool of an object that leaves set
// a field that the pool's users read before writing, when the function took
// the object from that pool and wrote the field: it puts back its own
// value for the next user to read.
func (c *checker) checkStalePut(fn *ssa.Function, p *putSite, gets []getSite) {
	if p.prim != syncPut || p.resets || p.field || p.key.cell || len(p.args) == 0 {
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	stale, pos := c.staleFields(id)
	if stale == 0 {
		return
	}
	st, ok := derefStruct(p.key.v.Type())
	if !ok {
		return
	}
	var mine fieldSet
	got := false
	for _, g := range gets {
		if g.prim != syncGet || len(g.args) == 0 || !c.flowsFrom(p.key.v, g.call) || !sameID(poolID(g.args[0]), id) {
			continue
		}
		got = true
		if obj, _ := assertedStruct(g.call); obj != nil {
			u, _ := c.fieldFlow(fn, obj, g.call, 0)
			mine |= u.may
		}
	}
	switch {
	case got:
		if c.resetsObj(fn, p.key) {
			return
		}
	case c.clearsFields(fn, p) >= 2 && !c.resetCalled(fn, p):
		// A release function (ReuseTimeseries) that clears fields
		// itself before the Put: it puts back whatever the user left in
		// the others (grafana/mimir#12652). What its calls write is
		// taken off below.
		mine = allFields
	default:
		return
	}
	stale &= mine
	if stale == 0 {
		return
	}
	// Fields the function clears itself before the Put (e.seq = 0).
	al := c.aliasesOf(fn, p.key, true)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Store); ok {
				// A release function (!got) that sets a field to anything
				// sets it for the next user (r.CallerSkip = l.CallerSkip:
				// the logger's default, gookit/slog 4ae7f8a's fix).
				if fa, ok := s.Addr.(*ssa.FieldAddr); ok && al[fa.X] && fa.Field < 64 && (isZeroConst(s.Val) || !got) {
					stale &^= 1 << fa.Field
				}
				// ts.Metadata.Type = 0: the record is being cleared.
				if fa, ok := s.Addr.(*ssa.FieldAddr); ok && isZeroConst(s.Val) {
					if outer, ok := fa.X.(*ssa.FieldAddr); ok && al[outer.X] && outer.Field < 64 {
						stale &^= 1 << outer.Field
					}
				}
				if c.flowsFrom(s.Addr, p.key.v) {
					return // *obj = T{}
				}
			}
			if ci, ok := instr.(ssa.CallInstruction); ok {
				stale &^= zeroedByCall(ci.Common(), al) // buf.ResizeNoShrink(0)
				if !got {
					// clearMeta(ts), ClearExemplars(ts): what the
					// release function's helpers write.
					if g := ci.Common().StaticCallee(); g != nil && g.Pkg == fn.Pkg {
						for j, a := range callArgs(ci.Common()) {
							if al[a] {
								stale &^= recvWrites(g, j, map[*ssa.Function]bool{})
							}
						}
					}
				}
			}
		}
	}
	if stale == 0 {
		return
	}
	what := fieldsPhrase(st, stale)
	c.report(checkNoReset, p.instr.Pos(), nil,
		"%s goes back to the pool with %s still set, and a user of the pool reads it before writing it (%s): the next user sees this one's value; clear it before the Put or after the Get",
		c.objName(p), what, c.shortPos(pos))
}

// clearsFields returns how many fields of the object of p fn clears
// itself: a store of nil, zero or a truncation to length zero.
func (c *checker) clearsFields(fn *ssa.Function, p *putSite) int {
	al := c.aliasesOf(fn, p.key, true)
	var cleared fieldSet
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || !al[fa.X] || fa.Field >= 64 {
				continue
			}
			if sl, ok := st.Val.(*ssa.Slice); ok && sl.High != nil && isConstN(sl.High, 0) || isNil(st.Val) || isZeroConst(st.Val) {
				cleared |= 1 << fa.Field
			}
		}
	}
	return bits.OnesCount64(uint64(cleared))
}

// resetCalled reports whether fn calls a method of the object of p named
// like a reset, or a function that resets the object before its Put.
func (c *checker) resetCalled(fn *ssa.Function, p *putSite) bool {
	al := c.aliasesOf(fn, p.key, true)
	for _, com := range resetCalls(fn) {
		// ts.Reset(), not a helper clearing one field (ClearExemplars(ts)),
		// whose writes are taken off the stale fields.
		if g := com.StaticCallee(); g.Signature.Recv() != nil && al[com.Args[0]] && types.Identical(com.Args[0].Type(), p.key.v.Type()) {
			return true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok {
				com := ci.Common()
				if ce, ok := c.calleeOf(com); ok && ce.sum != nil {
					for i, a := range callArgs(com) {
						if al[a] && ce.sum.putParams[i].resets {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// fieldsPhrase names the fields of set in st for a message: "field a",
// or "fields a and b".
func fieldsPhrase(st *types.Struct, set fieldSet) string {
	var names []string
	for i := 0; i < st.NumFields() && i < 64; i++ {
		if set&(1<<i) != 0 {
			names = append(names, st.Field(i).Name())
		}
	}
	if len(names) == 1 {
		return "field " + names[0]
	}
	return "fields " + joinNames(names)
}

// zeroedByCall returns the fields of the object (al holds its aliases)
// that the call sets to zero: a method given the object as its receiver
// and a zero constant that it stores into a field of the receiver
// (b.ResizeNoShrink(0) with b.length = n, p.SetBuf(nil) with p.buf = s).
func zeroedByCall(com *ssa.CallCommon, al map[ssa.Value]bool) fieldSet {
	g := com.StaticCallee()
	args := callArgs(com)
	if g == nil || len(g.Params) != len(args) || len(args) == 0 || !al[args[0]] {
		return 0
	}
	var out fieldSet
	for j := 1; j < len(args); j++ {
		if fa := storedField(g, j); fa != nil && fa.Field < 64 && isZeroConst(args[j]) {
			out |= 1 << fa.Field
		}
	}
	return out
}

// shortPos returns "file.go:line" for pos.
func (c *checker) shortPos(pos token.Pos) string {
	position := c.pass.Fset.Position(pos)
	return sprintf("%s:%d", filepath.Base(position.Filename), position.Line)
}

// sameID reports whether two poolIDs name the same pool.
func sameID(a, b any) bool { return a != nil && a == b }

// isZeroConst reports whether v is the zero constant of its type.
func isZeroConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if k.Value == nil {
		return true // nil, or the zero value of a struct or array
	}
	switch k.Value.ExactString() {
	case "0", `""`, "false":
		return true
	}
	return false
}

// joinNames joins names as "a, b and c".
func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			s += " and "
		default:
			s += ", "
		}
		s += n
	}
	return s
}

// Stale elements: a slice field re-sliced within its capacity
// (x.f = x.f[:n], n not 0) shows the next user the elements a previous user
// left beyond the old length. When they hold pointers (a []*Field, a
// []Label with slice fields) and nothing clears them, the next user builds
// on stale objects (go-mysql-org/go-mysql#1131, planetscale/vtprotobuf#35).
// A Reset that does this is reported where it re-slices; otherwise the Puts
// that truncate the field to [:0] without clearing it are reported, since
// the truncation is what the re-slice later undoes.

// fieldRef names a field of a struct type.
type fieldRef struct {
	obj   *types.TypeName
	field int
}

// fieldRefOf returns the field that fa addresses.
func fieldRefOf(fa *ssa.FieldAddr) (fieldRef, bool) {
	n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
	if !ok {
		return fieldRef{}, false
	}
	return fieldRef{n.Origin().Obj(), fa.Field}, true
}

// reslice describes x.f = x.f[:n]: the field and whether n is the constant
// 0. ok is false for other stores.
func reslice(st *ssa.Store) (fa *ssa.FieldAddr, zero, ok bool) {
	fa, zero, ok = resliceAny(st)
	if !ok || !refSlice(fa) {
		return nil, false, false
	}
	return fa, zero, true
}

// resliceAny is reslice for a slice field of any element type.
func resliceAny(st *ssa.Store) (fa *ssa.FieldAddr, zero, ok bool) {
	fa, sl, from, ok := truncStore(st)
	if !ok || !sameAddr(from, fa, 0) {
		return nil, false, false
	}
	return fa, zeroHigh(sl), true
}

// truncStore returns, for a store into a field of a load re-sliced from 0
// (x.f = y.g[:n]), the field stored into, the re-slice, and the address
// loaded (&y.g).
func truncStore(st *ssa.Store) (into *ssa.FieldAddr, sl *ssa.Slice, from ssa.Value, ok bool) {
	into, isField := st.Addr.(*ssa.FieldAddr)
	sl, isSlice := st.Val.(*ssa.Slice)
	if !isField || !isSlice || sl.Low != nil || sl.High == nil || sl.Max != nil {
		return nil, nil, nil, false
	}
	load, isLoad := sl.X.(*ssa.UnOp)
	if !isLoad || load.Op != token.MUL {
		return nil, nil, nil, false
	}
	return into, sl, load.X, true
}

// refSlice reports whether the field at fa is a slice whose elements point
// elsewhere (pointers, or strings).
func refSlice(fa *ssa.FieldAddr) bool {
	s, ok := fa.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Slice)
	return ok && (hasPointers(s.Elem()) || isString(s.Elem()))
}

// zeroHigh reports whether the re-slice sl ends at the constant 0.
func zeroHigh(sl *ssa.Slice) bool {
	k, isConst := sl.High.(*ssa.Const)
	return isConst && k.Value != nil && k.Value.String() == "0"
}

// litReslice is reslice for a field of a composite literal copied over
// the object (*a = T{Ops: a.Ops[:0]}; isObj tells the object's values):
// the literal's field holds the object's field re-sliced, and fa is the
// object's field.
func litReslice(st *ssa.Store, isObj func(ssa.Value) bool) (fa *ssa.FieldAddr, copied *ssa.Store, zero, ok bool) {
	lf, sl, from, ok := truncStore(st)
	if !ok {
		return nil, nil, false, false
	}
	lit, isAlloc := lf.X.(*ssa.Alloc)
	fa, isField := from.(*ssa.FieldAddr)
	if !isAlloc || !isField || fa.Field != lf.Field || !types.Identical(fa.X.Type(), lit.Type()) || !isObj(fa.X) || !refSlice(fa) {
		return nil, nil, false, false
	}
	if copied = copiedOver(lit, isObj); copied == nil {
		return nil, nil, false, false
	}
	return fa, copied, zeroHigh(sl), true
}

// copiedOver returns the store that copies the local struct lit over the
// object (*obj = *lit), or nil.
func copiedOver(lit *ssa.Alloc, isObj func(ssa.Value) bool) *ssa.Store {
	refs := lit.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		ld, ok := r.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || ld.Referrers() == nil {
			continue
		}
		for _, rr := range *ld.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Val == ld && isObj(st.Addr) {
				return st
			}
		}
	}
	return nil
}

// clearsElems reports whether fn clears the elements of the field at fa:
// clear(x.f), or a store of a whole element (x.f[i] = T{}).
func clearsElems(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	return clearsElemsOf(fn, func(v ssa.Value) bool {
		u, ok := v.(*ssa.UnOp)
		return ok && u.Op == token.MUL && sameAddr(u.X, fa, 0)
	})
}

// clearsElemsOf is clearsElems for the slice that is tells, or a re-slice
// of it: clear(s[:n]), s[i] = T{}, or a method that clears its elements.
func clearsElemsOf(fn *ssa.Function, is func(ssa.Value) bool) bool {
	of := func(v ssa.Value) bool {
		for {
			if is(v) {
				return true
			}
			sl, ok := v.(*ssa.Slice)
			if !ok {
				return false
			}
			v = sl.X
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if isClearBuiltin(&x.Call) && len(x.Call.Args) == 1 && of(x.Call.Args[0]) {
					return true
				}
				// pb.pages.clear(), a method of the slice type that sets
				// every element to nil (segmentio/kafka-go's
				// contiguousPages).
				if g := x.Call.StaticCallee(); g != nil && len(g.Params) == len(x.Call.Args) {
					for i, a := range x.Call.Args {
						if of(a) && storesElems(g, g.Params[i]) {
							return true
						}
						// s[i].reset(): a reset method of each element
						// (VictoriaMetrics/VictoriaMetrics#3432's fix).
						if ia, ok := a.(*ssa.IndexAddr); ok && i == 0 && g.Signature.Recv() != nil && isResetName(g.Name()) && of(ia.X) {
							return true
						}
					}
				}
			case *ssa.Store:
				if ia, ok := x.Addr.(*ssa.IndexAddr); ok && of(ia.X) {
					return true
				}
				// pmr := &s[i]; pmr.name = nil: a field of each element
				// set to nil (VictoriaMetrics/VictoriaMetrics#4049's fix).
				if c, ok := x.Val.(*ssa.Const); ok && c.IsNil() {
					addr := fieldsBase(x.Addr)
					if ia, ok := addr.(*ssa.IndexAddr); ok && addr != x.Addr && of(ia.X) {
						return true
					}
				}
			}
		}
	}
	return false
}

// clearsFieldOf reports whether fn clears the elements of field f of obj
// (clear(obj.f), obj.f[i] = ...), as a caller may do before a reset method
// truncates the field.
func (c *checker) clearsFieldOf(fn *ssa.Function, isObj func(ssa.Value) bool, f int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if fa, ok := instr.(*ssa.FieldAddr); ok && fa.Field == f && isObj(fa.X) && clearsElems(fn, fa) {
				return true
			}
		}
	}
	return false
}

// reextended returns, for each slice field of the package's structs, a
// re-slice within capacity that does not clear what it uncovers, and the
// function it is in; built on first use.
func (c *checker) reextended() map[fieldRef]*ssa.Store {
	if c.reext == nil {
		c.reext = map[fieldRef]*ssa.Store{}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					fa, zero, ok := reslice(st)
					// Re-slicing down (a Truncate) uncovers nothing: only an
					// explicit growth (x.f[:len(x.f)+1]), or a length chosen
					// by a Reset's caller, counts.
					if !ok || zero || clearsElems(fn, fa) || !growsLen(st.Val.(*ssa.Slice), fa) && !resetsByName(fn) {
						continue
					}
					if ref, ok := fieldRefOf(fa); ok && c.reext[ref] == nil {
						c.reext[ref] = st
					}
				}
			}
		}
	}
	return c.reext
}

// reextendedByHelper returns, for each slice field of the package's
// structs, a re-slice one past the length (s = s[:len(s)+1]) in a function
// of the package that is passed the field and whose result is stored back
// into it (x.f, err = appendSpan(x.f, src)), when that function stores
// nothing into the whole uncovered element and fills it field by field,
// some fields on some paths only, over what a previous user left there
// (VictoriaMetrics/VictoriaMetrics#11040). Built on first use.
func (c *checker) reextendedByHelper() map[fieldRef]*ssa.Slice {
	if c.reextHelper != nil {
		return c.reextHelper
	}
	c.reextHelper = map[fieldRef]*ssa.Slice{}
	for _, g := range c.funcs {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				sl, ok := instr.(*ssa.Slice)
				if !ok || sl.Low != nil || sl.Max != nil {
					continue
				}
				prm, ok := sl.X.(*ssa.Parameter)
				if !ok || !lenPlus(sl.High, func(s ssa.Value) bool { return s == prm }) || clearsElemsOf(g, func(s ssa.Value) bool { return s == sl }) || !fillsPartly(g, sl) {
					continue
				}
				i := slices.Index(g.Params, prm)
				for _, ci := range c.callSitesOf(g) {
					call, ok := ci.(*ssa.Call)
					if !ok || i < 0 || i >= len(call.Call.Args) {
						continue
					}
					ld, ok := call.Call.Args[i].(*ssa.UnOp)
					if !ok || ld.Op != token.MUL {
						continue
					}
					fa, ok := ld.X.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					ref, ok := fieldRefOf(fa)
					if ok && c.reextHelper[ref] == nil && storedBackInto(call, fa) {
						c.reextHelper[ref] = sl
					}
				}
			}
		}
	}
	return c.reextHelper
}

// lenPlus reports whether v is len(s) plus something (len(s)+1), for an
// s that is tells.
func lenPlus(v ssa.Value, is func(ssa.Value) bool) bool {
	bin, ok := v.(*ssa.BinOp)
	if !ok || bin.Op != token.ADD {
		return false
	}
	for _, x := range []ssa.Value{bin.X, bin.Y} {
		if call, ok := x.(*ssa.Call); ok && isBuiltin(&call.Call, "len") && len(call.Call.Args) == 1 && is(call.Call.Args[0]) {
			return true
		}
	}
	return false
}

// fillsPartly reports whether fn stores into fields of an element of the
// re-slice sl (or of a phi of it), and leaves some field of the element
// type unstored on some path: the slot keeps what a previous user left
// in that field. A helper that only hands out the slot (fasthttp's
// allocArg) leaves its filling to callers that set every field.
func fillsPartly(fn *ssa.Function, sl *ssa.Slice) bool {
	st, ok := sl.Type().Underlying().(*types.Slice).Elem().Underlying().(*types.Struct)
	if !ok || st.NumFields() >= 64 {
		return false
	}
	ofSlice := func(v ssa.Value) bool {
		if v == sl {
			return true
		}
		phi, ok := v.(*ssa.Phi)
		return ok && slices.Contains(phi.Edges, ssa.Value(sl))
	}
	stored, always := false, fieldSet(0)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			x, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := x.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			ia, ok := fa.X.(*ssa.IndexAddr)
			if !ok || !ofSlice(ia.X) {
				continue
			}
			stored = true
			if !avoidable(sl, x.Block()) {
				always |= 1 << fa.Field
			}
		}
	}
	return stored && bits.OnesCount64(uint64(always)) < st.NumFields()
}

// storedBackInto reports whether the first result of call is stored into
// the field that fa addresses (x.f, err = helper(x.f, ...)).
func storedBackInto(call *ssa.Call, fa *ssa.FieldAddr) bool {
	var res []ssa.Value
	if _, ok := call.Type().(*types.Tuple); ok {
		for _, r := range *call.Referrers() {
			if ex, ok := r.(*ssa.Extract); ok && ex.Index == 0 {
				res = append(res, ex)
			}
		}
	} else {
		res = append(res, call)
	}
	for _, v := range res {
		for _, r := range *v.Referrers() {
			if st, ok := r.(*ssa.Store); ok && st.Val == v && sameAddr(st.Addr, fa, 0) {
				return true
			}
		}
	}
	return false
}

// checkStaleElems reports re-slices within capacity in Reset methods, and
// Puts that truncate a field that some function re-extends.
func (c *checker) checkStaleElems(fn *ssa.Function, puts []putSite) {
	re := c.reextended()
	if len(re) > 0 && resetsByName(fn) {
		for _, st := range re {
			if st.Parent() == fn {
				fa := st.Addr.(*ssa.FieldAddr)
				c.report(checkNoReset, st.Pos(), nil,
					"%s re-slices %s within its capacity without clearing it: the elements a previous user left there come back to the next user; clear them (clear(s[:n]))",
					fn.Name(), fieldName(fa))
			}
		}
		return
	}
	for i := range puts {
		p := &puts[i]
		if poolOfTypeParams(fn, p) {
			continue
		}
		if p.prim == nil && !p.resets && !p.field && truncatedArg(fn, p.arg) {
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool truncated but with its elements not cleared: past the new length they still point to the previous user's data, which stays alive while the slice waits in the pool; clear them before truncating (clear(s))",
				c.objName(p))
			return
		}
		prim, args, at := p.prim, p.args, p.instr.Pos()
		if prim == nil {
			// defer func() { pool.Put(records) }(): the closure's Put,
			// reported there, unless the closure changes the slice
			// first, which its own check sees (defer func() { *o =
			// (*o)[:0]; ... }).
			if g := deferredClosure(p); g != nil && !storesCaptured(g) {
				if q := c.closureInnerPut(p); q != nil {
					prim, args, at = q.prim, q.args, q.instr.Pos()
				}
			}
		}
		if prim == nil || prim.kind == kindByte || c.poolResets(prim, args) {
			continue
		}
		isObj, _, ok := c.objValues(fn, p)
		if !ok {
			continue
		}
		if report, filled := c.truncatedElems(fn, p); report && filled {
			c.report(checkNoReset, at, nil,
				"%s goes back to the pool holding the elements stored or appended in it, not cleared: they still point to this user's data, which stays alive while the object waits in the pool and is seen by the next user that reads past its length; clear them before the Put (clear(s))",
				c.objName(p))
			return
		} else if report {
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool truncated but with its elements not cleared: past the new length they still point to the previous user's data, which stays alive while the object waits in the pool; clear them before truncating (clear(s))",
				c.objName(p))
			return
		}
		if helper := c.reextendedByHelper(); len(helper) > 0 {
			for _, t := range c.truncations(fn, isObj, true) {
				ref, ok := fieldRefOf(t.fa)
				if sl := helper[ref]; ok && sl != nil && re[ref] == nil {
					c.report(checkNoReset, sl.Pos(), nil,
						"%s re-slices the %s it is passed one past its length without clearing the element it uncovers, and %s goes back to the pool (line %d) with %s truncated but its elements still set: what the new element's user does not set keeps a previous user's values; clear the element first (s[len(s)-1] = T{})",
						displayName(sl.Parent()), fieldName(t.fa), c.objName(p), c.line(p.instr.Pos()), fieldName(t.fa))
					return
				}
			}
		}
		for _, t := range c.truncations(fn, isObj, false) {
			tr := t.fa
			ref, ok := fieldRefOf(tr)
			if !ok {
				continue
			}
			if re[ref] == nil || !growsLen(re[ref].Val.(*ssa.Slice), re[ref].Addr.(*ssa.FieldAddr)) {
				// Nothing re-extends it, but the elements past the new
				// length still point where the previous user set them
				// (m3db/m3#161, erigontech/erigon#22410). Elements that
				// only hold byte slices are buffers the object owns and
				// reuses on purpose (fasthttp's argsKV); a truncation
				// followed by other calls on the object (gin's reset at
				// Get, then the handler) is not what the Put leaves.
				// A []string that users append what they were passed to
				// counts: its strings keep those values alive
				// (redis/rueidis#312); so does a []struct whose elements
				// users build from views of their input (rostam#106);
				// strings inside other elements do not (a []Series
				// whose label slices the object reuses on purpose).
				if e := sliceElem(tr); !refersOut(e) && (e == nil || !isString(e) && !isStruct(e) && !isByteSlice(e) || !c.appendsCallerValues(ref)) {
					continue
				}
				if last := c.lastCallOn(fn, p.key, p.instr, t.at); last != "" && !isResetName(last) {
					continue
				}
				c.report(checkNoReset, p.instr.Pos(), nil,
					"%s goes back to the pool with %s truncated but its elements not cleared: past the new length they still point to the previous user's data, which stays alive while the object waits in the pool; clear them before truncating (clear(s))",
					c.objName(p), fieldName(tr))
				return
			}
			c.report(checkNoReset, p.instr.Pos(), nil,
				"%s goes back to the pool with %s truncated but its elements still set, and %s re-extends it over them (%s): the next user gets a previous user's elements; clear them before truncating",
				c.objName(p), fieldName(tr), re[ref].Parent().Name(), c.shortPos(re[ref].Pos()))
			return
		}
	}
}

// appendsCallerValues reports whether some function of the package
// appends to the field ref a parameter it was passed (not its receiver):
// x.s = append(x.s, tokens...).
func (c *checker) appendsCallerValues(ref fieldRef) bool {
	found := false
	c.eachFieldStore(func(_ *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		if found || !appendsTo(st.Val, fa) {
			return
		}
		if r, ok := fieldRefOf(fa); !ok || r != ref {
			return
		}
		for _, a := range st.Val.(*ssa.Call).Call.Args[1:] {
			if fromCaller(a) || builtFromCallerViews(a) || loadedFromCaller(a) {
				found = true
			}
		}
	})
	return found
}

// loadedFromCaller reports whether v is append's variadic array holding
// values loaded from memory a parameter (not the receiver) reaches:
// batch.Ids = append(batch.Ids, req.Ids[i]) keeps the caller's id slices
// (grafana/tempo#5568).
func loadedFromCaller(v ssa.Value) bool {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return false
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, st := range fieldStores(arr) {
		x := st.Val
		for i := 0; i < 8; i++ {
			var next ssa.Value
			switch y := x.(type) {
			case *ssa.UnOp:
				if y.Op == token.MUL {
					next = y.X
				}
			case *ssa.IndexAddr:
				next = y.X
			case *ssa.FieldAddr:
				next = y.X
			case *ssa.Index:
				next = y.X
			case *ssa.Field:
				next = y.X
			case *ssa.Slice:
				next = y.X
			}
			if next == nil {
				break
			}
			x = next
		}
		if x != st.Val && fromCaller(x) {
			return true
		}
	}
	return false
}

// isStruct reports whether t is a struct type.
func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// builtFromCallerViews reports whether v is a local struct value (op, as
// in append(dst.Ops, op)) into a field of which its function stores a
// view of a parameter, or appends one: op.Operand = p[:n] where p walks
// over the input (rostamlabs/rostam#106). The element then keeps the
// caller's input alive, and shows it to the next user.
func builtFromCallerViews(v ssa.Value) bool {
	if sl, ok := v.(*ssa.Slice); ok {
		// append's variadic array: what is stored into it.
		arr, ok := sl.X.(*ssa.Alloc)
		if !ok {
			return false
		}
		for _, st := range fieldStores(arr) {
			if builtFromCallerViews(st.Val) {
				return true
			}
		}
		return false
	}
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	al, ok := ld.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	for _, st := range fieldStores(al) {
		val := st.Val
		if call, ok := val.(*ssa.Call); ok && isBuiltin(&call.Call, "append") && len(call.Call.Args) == 2 {
			// append(op.Path, p[2:n]) appends a variadic array
			// holding the view; append(op.buf, p...) copies bytes.
			val = nil
			if sl, ok := call.Call.Args[1].(*ssa.Slice); ok {
				if arr, ok := sl.X.(*ssa.Alloc); ok {
					val = arr
				}
			}
			if val == nil {
				continue
			}
		}
		if viewOfCaller(val, 0) {
			return true
		}
	}
	return false
}

// viewOfCaller reports whether v is a sub-slice of a parameter (not the
// receiver) of slice type, through re-slices, phis (p = p[n:] in a loop)
// and variadic arrays holding one.
func viewOfCaller(v ssa.Value, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Parameter:
		_, ok := x.Type().Underlying().(*types.Slice)
		return ok && !isReceiver(x)
	case *ssa.Slice:
		return viewOfCaller(x.X, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if e != x && viewOfCaller(e, depth+1) {
				return true
			}
		}
	case *ssa.Alloc:
		// The array of append's variadic arguments: what is stored in it.
		for _, st := range fieldStores(x) {
			if viewOfCaller(st.Val, depth+1) {
				return true
			}
		}
	}
	return false
}

// eachFieldStore calls f for each store into a field (x.f = v) in the
// functions of the package.
func (c *checker) eachFieldStore(f func(fn *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr)) {
	c.eachStore(func(fn *ssa.Function, st *ssa.Store) {
		if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
			f(fn, st, fa)
		}
	})
}

// eachStore calls f for each store in the functions of the package.
func (c *checker) eachStore(f func(fn *ssa.Function, st *ssa.Store)) {
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					f(fn, st)
				}
			}
		}
	}
}

// resetsByName reports whether fn is named Reset or reset*: not Truncate
// or Clear, which shrink.
func resetsByName(fn *ssa.Function) bool {
	n := fn.Name()
	return n == "Reset" || n == "reset" || len(n) > 5 && (n[:5] == "Reset" || n[:5] == "reset")
}

// growsLen reports whether the high bound of sl is len(x.f) plus something:
// the slice grows over what lies beyond its old length.
func growsLen(sl *ssa.Slice, fa *ssa.FieldAddr) bool {
	return lenPlus(sl.High, func(s ssa.Value) bool {
		u, ok := s.(*ssa.UnOp)
		return ok && u.Op == token.MUL && sameAddr(u.X, fa, 0)
	})
}

// A truncation is a field of the object truncated to [:0] without clearing,
// and the instruction of fn that does it (the store, the copy of a
// composite literal over the object, or the call of a reset method).
type truncation struct {
	fa *ssa.FieldAddr
	at ssa.Instruction
}

// truncations returns the fields of the object (isObj tells its values)
// that fn, or a reset method it calls on it, truncates to [:0] without
// clearing.
func (c *checker) truncations(fn *ssa.Function, isObj func(ssa.Value) bool, anyElem bool) []truncation {
	var out []truncation
	scan := func(f *ssa.Function, isBase func(ssa.Value) bool, call ssa.Instruction) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				at := call
				if at == nil {
					at = st
				}
				fa, zero, ok := reslice(st)
				if anyElem {
					fa, zero, ok = resliceAny(st)
				}
				if !ok {
					var copied *ssa.Store
					fa, copied, zero, ok = litReslice(st, isBase)
					if call == nil {
						at = copied
					}
				}
				if ok && zero && isBase(fa.X) && !clearsElems(f, fa) && !c.clearsFieldOf(fn, isObj, fa.Field) {
					out = append(out, truncation{fa, at})
				}
			}
		}
	}
	scan(fn, isObj, nil)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || !isResetName(callee.Name()) || len(callee.Params) == 0 || len(call.Call.Args) == 0 ||
				!isObj(call.Call.Args[0]) || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg {
				continue
			}
			scan(callee, func(v ssa.Value) bool { return c.flowsFrom(v, callee.Params[0]) }, call)
		}
	}
	return out
}

// fieldName returns the name of the field at fa.
func fieldName(fa *ssa.FieldAddr) string {
	if st, ok := derefStruct(fa.X.Type()); ok && fa.Field < st.NumFields() {
		return st.Field(fa.Field).Name()
	}
	return "the field"
}

// decodeClears reports whether the decoding methods of t's pointer type
// declared in this package (UnmarshalJSON, UnmarshalText, DecodeMsg...:
// any method named Unmarshal* or Decode*) write every field of the struct
// on every path, as a custom UnmarshalJSON that starts with c.Object,
// c.Array = nil, nil does: decoding into a dirty object then leaves nothing
// of the previous user (maximhq/bifrost#618's fix).
func (c *checker) decodeClears(t types.Type) bool {
	st, ok := derefStruct(t)
	if !ok || st.NumFields() == 0 || st.NumFields() >= 64 {
		return false
	}
	all := fieldSet(1)<<st.NumFields() - 1
	found := false
	for _, fn := range c.funcs {
		recv := fn.Signature.Recv()
		if recv == nil || len(fn.Params) == 0 || !types.Identical(recv.Type(), t) ||
			!strings.HasPrefix(fn.Name(), "Unmarshal") && !strings.HasPrefix(fn.Name(), "Decode") {
			continue
		}
		if c.paramFieldUse(fn, 0, 3).writes&all != all {
			return false
		}
		found = true
	}
	return found
}

// sliceElem returns the element type of the slice field at fa, or nil.
func sliceElem(fa *ssa.FieldAddr) types.Type {
	if s, ok := derefType(fa.Type()).Underlying().(*types.Slice); ok {
		return s.Elem()
	}
	return nil
}

// refersOut reports whether a value of type t refers to objects of its
// own: a pointer, interface, map, channel or function, or an aggregate
// holding one. Slices count by their elements: a []byte is a buffer its
// holder owns. A type parameter does not count.
func refersOut(t types.Type) bool {
	if t == nil {
		return false
	}
	if _, ok := t.(*types.TypeParam); ok {
		// Unknown until instantiated (a []T pool of runes holds nothing):
		// not reported.
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Interface, *types.Map, *types.Chan, *types.Signature:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Slice:
		return refersOut(u.Elem())
	case *types.Array:
		return refersOut(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if refersOut(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// truncatedElems reports whether the object of put p is a *[]E, E
// referring out, that fn truncates to [:0] (*lp = (*lp)[:0]) without
// clearing the elements, with no other call on it before the Put; or,
// with filledOnly, that fn fills by appends and puts back uncleared.
func (c *checker) truncatedElems(fn *ssa.Function, p *putSite) (report, filledOnly bool) {
	pt, ok := p.key.v.Type().Underlying().(*types.Pointer)
	if ok && p.key.cell {
		// A variable captured by a closure (defer func() { *o = (*o)[:0];
		// pool.Put(o) }()): the object is what the cell holds.
		pt, ok = pt.Elem().Underlying().(*types.Pointer)
	}
	if !ok {
		return false, false
	}
	sl, ok := pt.Elem().Underlying().(*types.Slice)
	// Elements that hold only slices count when this function fills them
	// (a decode helper appending series with label sets of their own); a
	// helper that only truncates may be given elements whose slices the
	// next user reuses on purpose (cortex's PreallocTimeseries).
	if !ok {
		return false, false
	}
	slicesOnly := !refersOut(sl.Elem()) && !c.instRefersOut(fn, sl.Elem())
	if slicesOnly && !holdsSlice(sl.Elem()) {
		return false, false
	}
	grown := false // truncated after growing it here
	al := c.aliasesOf(fn, p.key, true)
	if ld, ok := p.key.v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		// Other loads of the field the object was loaded from name it
		// too (*l.events = (*l.events)[:0]; pool.Put(l.events)).
		for _, u := range fieldReloads(fn, ld) {
			al[u] = true
		}
	}
	truncated, filled, cleared := false, false, false
	var truncAt ssa.Instruction        // the truncation, when in the Put's block
	elemOf := func(v ssa.Value) bool { // an element of the pooled slice
		ia, ok := v.(*ssa.IndexAddr)
		if !ok {
			return false
		}
		ld, ok := ia.X.(*ssa.UnOp)
		return ok && ld.Op == token.MUL && al[ld.X]
	}
	zeroedFields := fieldSet(0) // fields set to zero in every element, one by one
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				// for i := range *p { (*p)[i] = T{} }: cleared one by one.
				if isZeroConst(x.Val) && elemOf(x.Addr) && inLoop(x.Block()) {
					cleared = true
				}
				// (*p)[i].ts = nil for each field that refers out
				// (cortexproject/cortex#2008's fixed ReuseSlice).
				if fa, ok := x.Addr.(*ssa.FieldAddr); ok && fa.Field < 64 && isZeroConst(x.Val) && elemOf(fa.X) && inLoop(x.Block()) {
					zeroedFields |= 1 << fa.Field
				}
				if al[x.Addr] && c.fills(x.Val, sl) {
					filled = true
				}
				// (*records)[0] = *r: an element set to a value the
				// caller passed (open-telemetry/opentelemetry-go#8233).
				if elemOf(x.Addr) && loadedFromParam(x.Val) {
					filled = true
				}
				s, ok := x.Val.(*ssa.Slice)
				if !ok || !al[x.Addr] || s.Low != nil || s.Max != nil {
					continue
				}
				if fieldsBase(x.Addr) != x.Addr {
					// (*msgs)[i].OOB = (*msgs)[i].OOB[:0]: a field of an
					// element truncated, not the pooled slice
					// (WireGuard/wireguard-go b3df23d's fix).
					continue
				}
				ld, isLoad := s.X.(*ssa.UnOp)
				if s.High != nil && isZeroConst(s.High) && (isLoad && al[ld.X] || al[s.X]) {
					truncated = true
					grown = grown || !isLoad
					if x.Block().Dominates(p.instr.Block()) {
						truncAt = x
					}
				}
			case *ssa.Call:
				if isClearBuiltin(&x.Call) && len(x.Call.Args) == 1 {
					v := x.Call.Args[0]
					if s, ok := v.(*ssa.Slice); ok {
						v = s.X
					}
					if ld, ok := v.(*ssa.UnOp); ok && al[ld.X] || al[v] {
						cleared = true // clear(*p), or clear(s) of what it was grown into
					}
				}
			}
		}
	}
	// defer func() { clear(*records); pool.Put(records) }()
	if g := deferredClosure(p); g != nil && clearsCaptured(g) {
		cleared = true
	}
	if zeroedFields != 0 {
		if st, ok := sl.Elem().Underlying().(*types.Struct); ok && st.NumFields() < 64 {
			cleared = true
			for i := range st.NumFields() {
				if refersOut(st.Field(i).Type()) && zeroedFields&(1<<i) == 0 {
					cleared = false
				}
			}
		}
	}
	if cleared {
		return false, false
	}
	if filled && !truncated {
		// Filled by appends here and put back as it is: its elements
		// point to this user's data (anacrolix/torrent c8299bf0).
		return true, true
	}
	if !truncated || slicesOnly && !grown && !filled {
		return false, false
	}
	// Calls before the truncation (the object's use) do not matter.
	last := c.lastCallOn(fn, p.key, p.instr, truncAt)
	return last == "" || isResetName(last), false
}

// deferredClosure returns the function of the closure that the deferred
// put p calls, or nil.
func deferredClosure(p *putSite) *ssa.Function {
	d, ok := p.instr.(*ssa.Defer)
	if !ok || !p.key.cell {
		return nil
	}
	mc, ok := d.Call.Value.(*ssa.MakeClosure)
	if !ok {
		return nil
	}
	g, _ := mc.Fn.(*ssa.Function)
	return g
}

// closureInnerPut returns the one Put of a pool in the deferred closure
// of p, or nil.
func (c *checker) closureInnerPut(p *putSite) *putSite {
	g := deferredClosure(p)
	if g == nil {
		return nil
	}
	puts, _ := c.sites(g)
	var found *putSite
	for i := range puts {
		if puts[i].prim == nil {
			continue
		}
		if found != nil {
			return nil
		}
		found = &puts[i]
	}
	return found
}

// clearsCaptured reports whether g calls clear on what a variable it
// captures holds (clear(*records)).
func clearsCaptured(g *ssa.Function) bool {
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !isClearBuiltin(&call.Call) || len(call.Call.Args) != 1 {
				continue
			}
			if isFreeVar(clearedBase(call.Call.Args[0])) {
				return true
			}
		}
	}
	return false
}

// clearedBase returns what the argument of a clear reaches through
// slicing and loads: records for clear(*records), bp for
// clear((*bp)[:cap(*bp)]).
func clearedBase(v ssa.Value) ssa.Value {
	for i := 0; i < 4; i++ {
		switch x := v.(type) {
		case *ssa.Slice:
			v = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
	return v
}

// storesCaptured reports whether g stores into what a variable it
// captures points to (*o = (*o)[:0]).
func storesCaptured(g *ssa.Function) bool {
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if ld, ok := st.Addr.(*ssa.UnOp); ok && ld.Op == token.MUL && isFreeVar(ld.X) {
				return true
			}
		}
	}
	return false
}

// loadedFromParam reports whether v is a parameter (not a receiver), or
// a value loaded from what one points to (*r).
func loadedFromParam(v ssa.Value) bool {
	if ld, ok := v.(*ssa.UnOp); ok && ld.Op == token.MUL {
		v = ld.X
	}
	return fromCaller(v)
}

// fills reports whether v, stored into a pooled *[]E, is what an append
// built it from (append(s, x...)), or a function of the package that
// takes a []E and returns one (t.appendUnclosedConns(s)).
func (c *checker) fills(v ssa.Value, sl *types.Slice) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	if isBuiltin(&call.Call, "append") {
		return true
	}
	g := call.Call.StaticCallee()
	if g == nil || g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg || !types.Identical(call.Type(), sl) {
		return false
	}
	for _, a := range call.Call.Args {
		if types.Identical(a.Type(), sl) {
			return true
		}
	}
	return false
}

// checkForgottenAppend reports a Put of an object whose Reset method, called
// by the Put's function, leaves a slice field that code of the package
// appends to: each user's appends go on after the previous user's
// (ClickHouse/clickhouse-go#327: Block.Reset forgot Columns, which Read
// appends to).
func (c *checker) checkForgottenAppend(fn *ssa.Function, p *putSite) {
	if p.prim == nil || p.field || p.prim.kind == kindByte {
		return
	}
	isObj, objT, ok := c.objValues(fn, p)
	if !ok {
		return
	}
	st, ok := derefStruct(objT)
	n, ok2 := types.Unalias(derefType(objT)).(*types.Named)
	if !ok || !ok2 || st.NumFields() >= 64 {
		return
	}
	al := c.aliasesOf(fn, p.key, true)
	var reset *ssa.Function
	var resetAt token.Pos
	written := fieldSet(0) // stored by fn itself
	cleared := fieldSet(0) // stored by functions fn hands the object to
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if fa, ok := x.Addr.(*ssa.FieldAddr); ok && al[fa.X] && fa.Field < 64 && !appendsTo(x.Val, fa) {
					written |= 1 << fa.Field
				}
				if isObj(x.Addr) {
					return // *obj = T{}
				}
			case ssa.CallInstruction:
				if g := c.resetOf(x, al, objT); g != nil {
					reset, resetAt = g, x.Pos()
				}
				// What a function of the package it hands the object
				// to clears (b.zero(), cloudwego/kitex#1103's fix).
				if g := x.Common().StaticCallee(); g != nil && g.Pkg == fn.Pkg {
					for j, a := range callArgs(x.Common()) {
						if al[a] {
							cleared |= recvWrites(g, j, map[*ssa.Function]bool{})
						}
					}
				}
			}
		}
	}
	if fv, ok := p.key.v.(*ssa.FreeVar); ok && reset == nil && p.key.cell {
		// A deferred closure that puts what its enclosing function got
		// and reset after the Get (ctx.Reset(rw, r); defer func() {
		// ...; pool.Put(ctx) }(), astaxie/beego#1862): that Reset.
		for _, b := range bindingsOf(fn, fv) {
			parent := fn.Parent()
			pal := c.aliasesOf(parent, objKey{b, true}, true)
			for _, blk := range parent.Blocks {
				for _, instr := range blk.Instrs {
					if ci, ok := instr.(ssa.CallInstruction); ok {
						if g := c.resetOf(ci, pal, objT); g != nil {
							reset, resetAt = g, ci.Pos()
						}
					}
				}
			}
		}
	}
	tn := n.Origin().Obj()
	if reset == nil {
		// The Put's own function clears field by field (two fields or
		// more), or a getter sets field by field each object it takes
		// from the pool: a flag that some users set on what Get
		// returned, and others never set, stays set for the next one
		// (CrowdStrike/csproto#213: skipClose; gocryptotrader#2296).
		clearer := displayName(fn) + " clears"
		if bits.OnesCount64(uint64(written)) < 2 {
			refreshed, getter := c.refreshedAtGet(tn)
			if bits.OnesCount64(uint64(refreshed)) < 2 {
				return
			}
			written |= refreshed
			clearer = displayName(getter) + " sets"
		}
		for f, by := range c.getFlags(tn) {
			if (written|cleared)&(1<<f) == 0 {
				c.report(checkNoReset, p.instr.Pos(), nil, "%s goes back to the pool with field %s, which %s sets on an object it gets from the pool and not every user sets, never cleared: %s other fields but not this one, so the next user sees this one's value; clear it before the Put",
					c.objName(p), st.Field(f).Name(), by, clearer)
				return
			}
		}
		return
	}
	if len(reset.Params) == 0 {
		return
	}
	// What Reset writes, through every function of the package it hands
	// its receiver to (Reset -> resetSkipHeader -> resetBody ->
	// removeFiles in fasthttp), beyond the depth paramFieldUse follows.
	resetWrites := c.paramFieldUse(reset, 0, 0).may | recvWrites(reset, 0, map[*ssa.Function]bool{})
	written |= resetWrites
	// Only a Reset that clears field by field (two fields or more) says
	// which fields set by setters are per use.
	bySetters := bits.OnesCount64(uint64(resetWrites)) >= 2
	for _, k := range []struct {
		fields map[int]string
		on     bool
		what   string // how the field is kept, after "with field %s, "
		effect string
	}{
		{c.appendedFields(tn), true, "which %s appends to, never cleared: %s (line %d) leaves it", "so each user's appends go on after the previous user's; truncate or clear it in %s"},
		{c.setFields(tn, reset), bySetters, "which %s sets, never cleared: %s (line %d) clears other fields but not this one", "so the next user sees this one's value; clear it in %s"},
		{c.stickyErrors(tn), true, "a sticky error that %s returns while it is set, never cleared: %s (line %d) leaves it", "so the next user's calls fail with this one's error; clear it in %s"},
	} {
		if !k.on {
			continue
		}
		for f, by := range k.fields {
			if written&(1<<f) != 0 || resetsFieldObject(reset, f) {
				continue
			}
			c.report(checkNoReset, p.instr.Pos(), nil, "%s goes back to the pool with field %s, "+k.what+", "+k.effect,
				c.objName(p), st.Field(f).Name(), by, reset.Name(), c.line(resetAt), reset.Name())
			return
		}
	}
}

// recvWrites returns the fields of parameter i of fn that fn stores into,
// or that a function of the same package it passes the parameter to does,
// at any depth.
func recvWrites(fn *ssa.Function, i int, seen map[*ssa.Function]bool) fieldSet {
	if seen[fn] || i >= len(fn.Params) {
		return 0
	}
	seen[fn] = true
	prm := fn.Params[i]
	var out fieldSet
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if fa, ok := x.Addr.(*ssa.FieldAddr); ok && fa.X == prm && fa.Field < 64 {
					out |= 1 << fa.Field
				}
			case ssa.CallInstruction:
				g := x.Common().StaticCallee()
				if g == nil {
					continue
				}
				for j, a := range callArgs(x.Common()) {
					if fa, ok := a.(*ssa.FieldAddr); ok && j == 0 && fa.X == prm && fa.Field < 64 && isResetName(g.Name()) {
						out |= 1 << fa.Field // req.uri.Reset()
					}
					if a == prm && g.Pkg == fn.Pkg {
						out |= recvWrites(g, j, seen)
					}
				}
			}
		}
	}
	return out
}

// resetCalls returns the calls in fn of functions named like a reset
// (isResetName), other than fn itself.
func resetCalls(fn *ssa.Function) []*ssa.CallCommon {
	var out []*ssa.CallCommon
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok {
				com := ci.Common()
				if g := com.StaticCallee(); g != nil && g != fn && isResetName(g.Name()) && len(com.Args) > 0 {
					out = append(out, com)
				}
			}
		}
	}
	return out
}

// resetsFieldObject reports whether fn calls a reset-named method on what
// field f of its receiver holds (c.response.reset(w), labstack/echo's
// context): the field is kept on purpose and re-initialised.
func resetsFieldObject(fn *ssa.Function, f int) bool {
	for _, com := range resetCalls(fn) {
		a := com.Args[0]
		if ld, ok := a.(*ssa.UnOp); ok && ld.Op == token.MUL {
			a = ld.X
		}
		if fa, ok := a.(*ssa.FieldAddr); ok && fa.X == fn.Params[0] && fa.Field == f {
			return true
		}
	}
	return false
}

// setFields returns the fields of the struct type tn that a method of the
// type other than reset sets, to a scalar (c.sameSite = s, ctx.next =
// true) or to what it was passed (c.pvalues = values), and that some
// function reads: per-use state that a Reset has to clear
// (gin-gonic/gin#3123, savsgio/atreugo#58, labstack/echo#1429), with the
// setter's name.
func (c *checker) setFields(tn *types.TypeName, reset *ssa.Function) map[int]string {
	set := map[int]string{}
	read := map[int]bool{} // loaded anywhere in the package
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if ld, ok := instr.(*ssa.UnOp); ok && ld.Op == token.MUL {
					if fa, ok := ld.X.(*ssa.FieldAddr); ok {
						if rn, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named); ok && rn.Origin().Obj() == tn {
							read[fa.Field] = true
						}
					}
				}
			}
		}
		if fn == reset || fn.Signature.Recv() == nil || len(fn.Params) == 0 || isResetName(fn.Name()) || resetsByName(fn) {
			continue
		}
		rn, ok := types.Unalias(derefType(fn.Params[0].Type())).(*types.Named)
		if !ok || rn.Origin().Obj() != tn {
			continue
		}
		st, ok := derefStruct(fn.Params[0].Type())
		if !ok {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				x, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if !ok || fa.X != fn.Params[0] || fa.Field >= 64 || isZeroConst(x.Val) {
					continue
				}
				_, basic := st.Field(fa.Field).Type().Underlying().(*types.Basic)
				// Or what the setter was passed, kept by reference
				// (c.pvalues = values, labstack/echo#1429).
				if basic || fromCaller(x.Val) && hasPointers(x.Val.Type()) {
					if _, seen := set[fa.Field]; !seen {
						set[fa.Field] = displayName(fn)
					}
				}
			}
		}
	}
	for f := range set {
		if !read[f] {
			delete(set, f)
		}
	}
	return set
}

// getFlags returns the fields of the struct type tn that some function
// sets on an object it just got from a pool, or from a getter that takes
// one from a pool, to a constant other than zero (child.skipClose = true)
// or to a value it was passed that holds pointers (f.structuredFields =
// extra), that some Get site (or getter) does not set on every path from
// its Get, that no user sets to zero after Get, and that some function
// reads, with the name of a function that sets each: per-use state that
// only some users set. A field some user zeroes after Get is managed there
// (go-playground/validator's hasExcludes); a getter's own sets count on
// every object it returns (grafana/tempo#5117's flag set under an if,
// thrasher-corp/gocryptotrader#2296's structured fields).
func (c *checker) getFlags(tn *types.TypeName) map[int]string {
	set := map[int]string{}
	read := map[int]bool{}
	got := map[ssa.Value]fieldSet{} // per object got from a pool: the fields set on it on every path
	zeroed := fieldSet(0)           // fields some user sets to zero after Get: managed at Get
	isTN := func(t types.Type) bool {
		n, ok := types.Unalias(derefType(t)).(*types.Named)
		return ok && n.Origin().Obj() == tn
	}
	// gotValue reports whether v is an object fresh from a pool (or a
	// getter) and records it with what its getter sets on it.
	gotValue := func(fn *ssa.Function, v ssa.Value) bool {
		if _, seen := got[v]; seen {
			return true
		}
		if !isTN(v.Type()) {
			return false
		}
		if c.isGetCall(v) {
			if s := c.sums[fn]; s != nil && s.gets && returned(v) && len(c.callSitesOf(fn)) > 0 {
				return false // a getter's own Get: its callers are the Get sites
			}
			got[v] = 0
			return true
		}
		if g := c.getterOf(v); g != nil {
			got[v] = c.getterSets(g)
			return true
		}
		return false
	}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && isTN(fa.X.Type()) {
						read[fa.Field] = true
					}
				case *ssa.TypeAssert, *ssa.Call:
					gotValue(fn, x.(ssa.Value)) // a Get site that may set no field
				case *ssa.Store:
					fa, ok := x.Addr.(*ssa.FieldAddr)
					if !ok || fa.Field >= 64 || !gotValue(fn, fa.X) {
						continue
					}
					if !avoidable(fa.X, x.Block()) {
						got[fa.X] |= 1 << fa.Field
					}
					if isZeroConst(x.Val) {
						zeroed |= 1 << fa.Field
					}
					_, basic := x.Val.Type().Underlying().(*types.Basic)
					_, k := x.Val.(*ssa.Const)
					if basic && k && !isZeroConst(x.Val) || !k && fromCaller(x.Val) && hasPointers(x.Val.Type()) {
						if _, seen := set[fa.Field]; !seen {
							set[fa.Field] = displayName(fn)
						}
					}
				}
			}
		}
	}
	for f := range set {
		unset := false
		for _, fields := range got {
			unset = unset || fields&(1<<f) == 0
		}
		if !read[f] || !unset || zeroed&(1<<f) != 0 {
			delete(set, f)
		}
	}
	return set
}

// getterOf returns the function of the package that v is the result of
// when that function returns an object it took from a pool (a getter:
// encoderPoolGet, sl.getFields), or nil.
func (c *checker) getterOf(v ssa.Value) *ssa.Function {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	g := call.Call.StaticCallee()
	if g == nil || g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg {
		return nil
	}
	if s := c.sums[g]; s != nil && s.gets {
		return g
	}
	return nil
}

// getterSets returns the fields that the getter g sets on the object it
// takes from a pool on every path from that Get, itself, through functions
// of the package it hands the object to (c.Reset(fctx)), or through a
// getter whose result it returns: what every caller of g gets refreshed.
func (c *checker) getterSets(g *ssa.Function) fieldSet {
	return c.getterSetsSeen(g, map[*ssa.Function]bool{})
}

func (c *checker) getterSetsSeen(g *ssa.Function, seen map[*ssa.Function]bool) fieldSet {
	if seen[g] {
		return 0
	}
	seen[g] = true
	var out fieldSet
	for _, b := range g.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				fa, ok := x.Addr.(*ssa.FieldAddr)
				if ok && fa.Field < 64 && c.isPoolObj(fa.X) && !avoidable(getValue(fa.X), x.Block()) {
					out |= 1 << fa.Field
				}
			case *ssa.Call:
				if h := c.getterOf(x); h != nil && returned(x) {
					out |= c.getterSetsSeen(h, seen)
				}
				callee := x.Call.StaticCallee()
				if callee == nil || callee.Pkg != g.Pkg {
					continue
				}
				for j, a := range x.Call.Args {
					if c.isPoolObj(a) && !avoidable(getValue(a), x.Block()) {
						out |= recvWrites(callee, j, map[*ssa.Function]bool{})
					}
				}
			}
		}
	}
	return out
}

// getValue returns the value a Get's result is defined by: the type
// assertion of a comma-ok assertion's first result.
func getValue(v ssa.Value) ssa.Value {
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		if ta, ok := ex.Tuple.(*ssa.TypeAssert); ok {
			return ta
		}
	}
	return v
}

// isPoolObj reports whether v is what a pool's own Get returned, through
// a type assertion, comma-ok or not.
func (c *checker) isPoolObj(v ssa.Value) bool {
	v = getValue(v)
	if ta, ok := v.(*ssa.TypeAssert); ok && ta.CommaOk {
		return c.isGetCall(ta.X)
	}
	return c.isGetCall(v)
}

// refreshedAtGet returns the fields of tn that some getter of the package
// sets on each object it takes from a pool (f.info = sl.info; f.name =
// sl.name in gocryptotrader's getFields): a field-by-field refresh at Get.
func (c *checker) refreshedAtGet(tn *types.TypeName) (fieldSet, *ssa.Function) {
	var out fieldSet
	var by *ssa.Function
	for _, fn := range c.funcs {
		s := c.sums[fn]
		if s == nil || !s.gets || fn.Signature.Results().Len() == 0 {
			continue
		}
		n, ok := types.Unalias(derefType(fn.Signature.Results().At(0).Type())).(*types.Named)
		if !ok || n.Origin().Obj() != tn {
			continue
		}
		if sets := c.getterSets(fn); bits.OnesCount64(uint64(sets)) > bits.OnesCount64(uint64(out)) {
			out, by = sets, fn
		}
	}
	return out, by
}

// returned reports whether v is returned by its function as it is, or
// through a phi.
func returned(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Return:
			return true
		case *ssa.Phi:
			if pr := r.Referrers(); pr != nil {
				for _, rr := range *pr {
					if _, ok := rr.(*ssa.Return); ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// avoidable reports whether a path leads from v's definition to a return
// of its function without passing through block b, other than the path
// on which v is nil (if f := get(); f != nil { f.x = 1 }) or too big for
// a size guard, and paths that end in a panic.
func avoidable(v ssa.Value, b *ssa.BasicBlock) bool {
	def, ok := v.(ssa.Instruction)
	if !ok || def.Block() == nil {
		return true
	}
	if def.Block() == b {
		return false
	}
	return searchFrom(def.Block(), map[*ssa.BasicBlock]bool{b: true}, func(x *ssa.BasicBlock) []*ssa.BasicBlock {
		return guardSuccs(x, x.Succs, v)
	}, func(x *ssa.BasicBlock) bool {
		_, ok := lastInstr(x).(*ssa.Return)
		return x != b && ok
	})
}

// isGetCall reports whether v is what a pool's own Get returned (through a
// type assertion); not a getter function, which may set fields itself.
func (c *checker) isGetCall(v ssa.Value) bool {
	if ta, ok := v.(*ssa.TypeAssert); ok {
		v = ta.X
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	ce, ok := c.calleeOf(&call.Call)
	return ok && ce.prim != nil && ce.prim.role == roleGet
}

// stickyErrors returns the error fields of the struct type tn that a
// method of the package returns while they are set (if w.err != nil {
// return w.err }) and that some function sets to an error, with the name
// of one such method: the sticky error of a writer (andybalholm/brotli#24);
// built on first use.
func (c *checker) stickyErrors(tn *types.TypeName) map[int]string {
	if c.sticky == nil {
		c.sticky = map[*types.TypeName]map[int]string{}
		set := map[fieldRef]bool{}
		checked := map[fieldRef]string{}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch x := instr.(type) {
					case *ssa.Store:
						if fa, ok := x.Addr.(*ssa.FieldAddr); ok && isErrorType(x.Val.Type()) && !isNil(x.Val) {
							if ref, ok := fieldRefOf(fa); ok {
								set[ref] = true
							}
						}
					case *ssa.If:
						bin, ok := x.Cond.(*ssa.BinOp)
						if !ok || bin.Op != token.NEQ || !isNil(bin.Y) || len(b.Succs) != 2 {
							continue
						}
						ld, ok := bin.X.(*ssa.UnOp)
						if !ok || ld.Op != token.MUL || !isErrorType(ld.Type()) {
							continue
						}
						fa, ok := ld.X.(*ssa.FieldAddr)
						if !ok {
							continue
						}
						// The set side returns the field itself.
						if ret, ok := lastInstr(b.Succs[0]).(*ssa.Return); ok && returnsLoadOf(ret, fa) {
							if ref, ok := fieldRefOf(fa); ok {
								if _, seen := checked[ref]; !seen {
									checked[ref] = displayName(fn)
								}
							}
						}
					}
				}
			}
		}
		for ref, by := range checked {
			if !set[ref] {
				continue
			}
			if c.sticky[ref.obj] == nil {
				c.sticky[ref.obj] = map[int]string{}
			}
			c.sticky[ref.obj][ref.field] = by
		}
	}
	return c.sticky[tn]
}

// returnsLoadOf reports whether ret returns a load of the same field as
// fa (return 0, w.err).
func returnsLoadOf(ret *ssa.Return, fa *ssa.FieldAddr) bool {
	for _, r := range ret.Results {
		if ld, ok := r.(*ssa.UnOp); ok && ld.Op == token.MUL {
			if rfa, ok := ld.X.(*ssa.FieldAddr); ok && rfa.X == fa.X && rfa.Field == fa.Field {
				return true
			}
		}
	}
	return false
}

// appendedFields returns the slice fields of the struct type tn that some
// function of the package appends to in place (x.f = append(x.f, ...)),
// with one such function's name, and that no function of the package
// stores anything else into (x.f = x.f[:0] before the appends, as
// fasthttp's URI.parse does, manages the field); built per type on first
// use.
func (c *checker) appendedFields(tn *types.TypeName) map[int]string {
	if c.appended == nil {
		c.appended = map[*types.TypeName]map[int]string{}
		managed := map[fieldRef]bool{}
		c.eachFieldStore(func(fn *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
			ref, ok := fieldRefOf(fa)
			if !ok {
				return
			}
			if !appendsTo(st.Val, fa) {
				managed[ref] = true
				return
			}
			if _, fresh := fa.X.(*ssa.Alloc); fresh {
				// A constructor's appends to the object it makes
				// (x := &T{}; x.defaults = append(x.defaults, v)) are
				// its initial state, not a user's.
				return
			}
			if c.appended[ref.obj] == nil {
				c.appended[ref.obj] = map[int]string{}
			}
			if _, seen := c.appended[ref.obj][ref.field]; !seen {
				c.appended[ref.obj][ref.field] = displayName(fn)
			}
		})
		for ref := range managed {
			delete(c.appended[ref.obj], ref.field)
		}
	}
	return c.appended[tn]
}

// appendsTo reports whether v is append(x.f, ...) of the field at fa.
func appendsTo(v ssa.Value, fa *ssa.FieldAddr) bool {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) == 0 {
		return false
	}
	if bi, ok := call.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "append" {
		return false
	}
	ld, ok := call.Call.Args[0].(*ssa.UnOp)
	return ok && ld.Op == token.MUL && sameAddr(ld.X, fa, 0)
}

// assignedOnce reports whether the variable v, a cell (an *ssa.Alloc of
// fn, or a free variable of fn captured by reference), is stored into
// once: its loads all give the same object.
func assignedOnce(fn *ssa.Function, v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.Alloc:
		return onlyStored(x) != nil
	case *ssa.FreeVar:
		bs := bindingsOf(fn, x)
		for _, b := range bs {
			if !assignedOnce(fn.Parent(), b) {
				return false
			}
		}
		return len(bs) > 0
	}
	return false
}

// objValues returns how to tell the values of the object p puts in fn
// (what flows from its key), and the object's type. For a variable
// assigned once and captured by a deferred closure that puts it (a :=
// get(); defer func() { ...; Put(a) }()), its loads are the object; a
// variable assigned more than once is not followed (ok false).
func (c *checker) objValues(fn *ssa.Function, p *putSite) (isObj func(ssa.Value) bool, objT types.Type, ok bool) {
	if !p.key.cell {
		return func(v ssa.Value) bool { return c.flowsFrom(v, p.key.v) }, p.key.v.Type(), true
	}
	if !assignedOnce(fn, p.key.v) {
		return nil, nil, false
	}
	return func(v ssa.Value) bool {
		ld, ok := v.(*ssa.UnOp)
		return ok && ld.Op == token.MUL && ld.X == p.key.v
	}, derefType(p.key.v.Type()), true
}

// resetOf returns the reset-named method of the package that ci calls on
// the object (al holds its aliases, objT its type), or nil. A method of
// one of its fields (b.inputs.clear()) is not one.
func (c *checker) resetOf(ci ssa.CallInstruction, al map[ssa.Value]bool, objT types.Type) *ssa.Function {
	com := ci.Common()
	g := com.StaticCallee()
	if g == nil || g.Pkg == nil || g.Pkg.Pkg != c.pass.Pkg || g.Signature.Recv() == nil || !isResetName(g.Name()) ||
		len(com.Args) == 0 || !al[com.Args[0]] || !types.Identical(com.Args[0].Type(), objT) {
		return nil
	}
	return g
}

// truncatedArg reports whether arg, given to a Put wrapper of a typed pool
// that takes slices as they are, is s[:0] of a slice whose elements refer
// to other memory, with no clear(s) or loop over its elements in fn
// (prometheus/prometheus#13712: seriesPool.Put(b[:0]) of []*memSeries).
func truncatedArg(fn *ssa.Function, arg ssa.Value) bool {
	sl, ok := arg.(*ssa.Slice)
	if !ok || sl.Low != nil || sl.Max != nil || sl.High == nil || !isZeroConst(sl.High) {
		return false
	}
	st, ok := sl.X.Type().Underlying().(*types.Slice)
	if !ok || !refersOut(st.Elem()) && !holdsSlice(st.Elem()) {
		return false
	}
	base := sl.X
	if ld, ok := base.(*ssa.UnOp); ok && ld.Op == token.MUL {
		return false // a field or variable: other functions may clear it
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if isBuiltin(&x.Call, "clear") && len(x.Call.Args) == 1 && unslice(x.Call.Args[0]) == base {
					return false
				}
			case *ssa.Store:
				// b[i] = nil, b[i].f = empty: cleared in a loop.
				a := fieldsBase(x.Addr)
				if ia, ok := a.(*ssa.IndexAddr); ok && unslice(ia.X) == base && inLoop(x.Block()) {
					return false
				}
			}
		}
	}
	return true
}

// instRefersOut reports whether t is a type parameter of the generic type
// whose method fn is, and the package instantiates that type with a type
// argument that refers out (Exporter[*UsageInfo] for a pool of *[]T:
// wundergraph/cosmo#2990).
func (c *checker) instRefersOut(fn *ssa.Function, t types.Type) bool {
	tp, ok := t.(*types.TypeParam)
	if !ok || fn.Signature.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(derefType(fn.Signature.Recv().Type())).(*types.Named)
	if !ok {
		return false
	}
	origin := n.Origin()
	for _, inst := range c.pass.TypesInfo.Instances {
		in, ok := inst.Type.(*types.Named)
		if ok && in.Origin() == origin && tp.Index() < inst.TypeArgs.Len() && refersOut(inst.TypeArgs.At(tp.Index())) {
			return true
		}
	}
	return false
}

// holdsSlice reports whether a value of type t holds a slice, which an
// element of a truncated slice keeps alive with all it points to (an
// exemplar's label set).
func holdsSlice(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return true
	case *types.Array:
		return holdsSlice(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if holdsSlice(u.Field(i).Type()) {
				return true
			}
		}
	}
	return false
}

// fieldsBase returns addr without the field addresses on top of it: &s[i]
// for &s[i].a.b.
func fieldsBase(addr ssa.Value) ssa.Value {
	for {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			return addr
		}
		addr = fa.X
	}
}

// poolOfTypeParams reports whether p puts a slice (or *[]T) whose
// elements are of a type parameter or are any values, in a method named
// Get or Put: a pool's own batch of free objects moved between sync.Pools
// (deepflow's LockFreePool), whose elements are the pooled objects, not a
// user's data (a generic exporter's put(b []T) still holds user data).
func poolOfTypeParams(fn *ssa.Function, p *putSite) bool {
	v := p.arg
	if mi, ok := v.(*ssa.MakeInterface); ok {
		v = mi.X
	}
	if v == nil {
		return false
	}
	t := v.Type().Underlying()
	if ptr, ok := t.(*types.Pointer); ok {
		t = ptr.Elem().Underlying()
	}
	sl, ok := t.(*types.Slice)
	if !ok {
		return false
	}
	_, isParam := types.Unalias(sl.Elem()).(*types.TypeParam)
	return (isParam || isEmptyInterface(sl.Elem())) && fn.Signature.Recv() != nil && (fn.Name() == "Put" || fn.Name() == "Get")
}
