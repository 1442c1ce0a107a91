package poolvet

import (
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// fieldChain returns, for a load of a field reached through loads of
// fields (*(&(*(&p.group)).presence)), the value the chain starts from,
// its path of field indexes ("0.0"), and the last field's address; base is
// nil if v is not such a load.
func fieldChain(v ssa.Value) (base ssa.Value, path string, last *ssa.FieldAddr) {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil, "", nil
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil, "", nil
	}
	base, path = fieldAddrChain(fa)
	return base, path, fa
}

// fieldAddrChain is fieldChain for the address of the last field.
func fieldAddrChain(fa *ssa.FieldAddr) (base ssa.Value, path string) {
	idx := []string{strconv.Itoa(fa.Field)}
	v := fa.X
	for {
		// &bw.writer.buf, a field of a struct held by value (embedded
		// or not), has the same path as through a pointer field
		// (lindb/lindb#206's BufferWriter).
		if f, ok := v.(*ssa.FieldAddr); ok {
			idx = append(idx, strconv.Itoa(f.Field))
			v = f.X
			continue
		}
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			break
		}
		f, ok := ld.X.(*ssa.FieldAddr)
		if !ok {
			break
		}
		idx = append(idx, strconv.Itoa(f.Field))
		v = f.X
	}
	slices.Reverse(idx)
	return v, strings.Join(idx, ".")
}

// recordFieldPut notes in s that fn puts the object at a field path of one
// of its parameters (p.group.presence), and whether it leaves the field
// holding it (kept) or stores into it.
func recordFieldPut(s *summary, fn *ssa.Function, p *putSite) {
	if p.key.cell || p.field {
		return
	}
	v := p.key.v
	if a, ok := v.(*ssa.Alloc); ok {
		// p := b.v; b.v = nil; pool.Put(&p): the variable holds the
		// field's slice, whose memory goes back (v2fly/v2ray-core's
		// buf.Buffer.Release).
		if held := onlyStored(a); held != nil {
			v = held
		}
	}
	base, path, last := fieldChain(v)
	if base != nil {
		// mem := b.buf; b.buf = nil; free(mem): the field was cleared
		// after the load, before the Put, so it does not keep the object
		// (bytedance/sonic's StreamDecoder.Decode).
		from := ssa.Instruction(p.instr)
		if ld, ok := v.(*ssa.UnOp); ok && !isDefer(p.instr) {
			from = ld
		}
		s.addFieldPut(fn, fieldLoc{base, path}, !storesAfter(fn, last, from), !p.cond && putsOnEveryPath(fn, []ssa.Instruction{p.instr}, base))
		return
	}
	// for _, a := range b.actions { put(a) }: every element of a field,
	// path "f[]", kept unless the function stores into the field
	// (globalsign/mgo#199).
	if _, fa := elemField(p.key.v); fa != nil && !p.cond && inLoop(p.instr.Block()) {
		base, path := fieldAddrChain(fa)
		s.addFieldPut(fn, fieldLoc{base, path + "[]"}, !storesAfter(fn, fa, p.instr), false)
	}
}

// addFieldPut notes in s a Put at a field path of a value, if that value
// is a parameter of fn.
func (s *summary) addFieldPut(fn *ssa.Function, at fieldLoc, kept, sure bool) {
	for i, q := range fn.Params {
		if q != at.base {
			continue
		}
		if s.fieldPuts == nil {
			s.fieldPuts = map[int]map[string]bool{}
		}
		if s.fieldPuts[i] == nil {
			s.fieldPuts[i] = map[string]bool{}
		}
		s.fieldPuts[i][at.path] = s.fieldPuts[i][at.path] || kept
		if sure {
			if s.sureFieldPuts == nil {
				s.sureFieldPuts = map[int]map[string]bool{}
			}
			if s.sureFieldPuts[i] == nil {
				s.sureFieldPuts[i] = map[string]bool{}
			}
			s.sureFieldPuts[i][at.path] = true
		}
	}
}

// recordCalleeFieldPuts adds to s the field paths at which the calls of fn
// put objects, per their callees' summaries, when the call is given a
// parameter of fn or a field path of one (c.outboundBuffer.Release() puts
// c's outboundBuffer.ringBuffer); kept unless fn stores into the field.
func (c *checker) recordCalleeFieldPuts(s *summary, fn *ssa.Function) {
	stored, calls := c.fieldPutCalls(fn, true, s)
	for _, f := range calls {
		s.addFieldPut(fn, f.at, f.kept && !storedAt(stored, f.at), f.sure && putsOnEveryPath(fn, []ssa.Instruction{f.instr}, f.at.base))
	}
}

// A fieldCall is a call that puts an object at a field path of what it is
// given, per its callee's summary.
type fieldCall struct {
	instr ssa.CallInstruction
	at    fieldLoc
	fieldPut
}

// fieldPutCalls returns the field paths fn stores into, and its calls that
// put at field paths (deferred ones too when withDefer is set; never go
// statements, nor calls whose summary is self, fn's own in progress).
func (c *checker) fieldPutCalls(fn *ssa.Function, withDefer bool, self *summary) (map[fieldLoc]bool, []fieldCall) {
	stored := map[fieldLoc]bool{}
	var calls []fieldCall
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
					base, path := fieldAddrChain(fa)
					stored[fieldLoc{base, path}] = true
				}
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch instr.(type) {
			case *ssa.Go:
				continue
			case *ssa.Defer:
				if !withDefer {
					continue // runs at another time than its place says
				}
			}
			ce, ok := c.calleeOf(ci.Common())
			if !ok || ce.sum == nil || ce.sum == self {
				continue
			}
			for at, fp := range ce.sum.fieldPutsAt(callArgs(ci.Common())) {
				calls = append(calls, fieldCall{ci, at, fp})
			}
		}
	}
	return stored, calls
}

// storedAt reports whether stored holds at or a path that at extends: a
// store into s.stream also drops what s.stream.rs held.
func storedAt(stored map[fieldLoc]bool, at fieldLoc) bool {
	for p := at.path; ; {
		if stored[fieldLoc{at.base, p}] {
			return true
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// A fieldLoc is a field path from a value: s and "0.1" for s.group.presence.
type fieldLoc struct {
	base ssa.Value
	path string
}

// A fieldPut is a Put that a call makes at a field path of an argument.
type fieldPut struct {
	kept bool   // the field still holds the object afterwards
	sure bool   // put on every path through the callee (sureFieldPuts)
	arg  int    // the argument, receiver first
	sub  string // the field path from that argument
}

// fieldPutsAt returns where a call given args puts objects per s.fieldPuts,
// as field paths from the values the arguments are loaded from. Flag-guarded
// Puts are left out (checkGuardedAgain follows those).
func (s *summary) fieldPutsAt(args []ssa.Value) map[fieldLoc]fieldPut {
	out := map[fieldLoc]fieldPut{}
	for i, paths := range s.fieldPuts {
		if i >= len(args) || s.putParams[i].guard > 0 {
			continue
		}
		base, prefix := args[i], ""
		if b, p, _ := fieldChain(args[i]); b != nil {
			base, prefix = b, p+"."
		}
		for path, kept := range paths {
			at := fieldLoc{base, prefix + path}
			out[at] = fieldPut{kept: kept || out[at].kept, sure: s.sureFieldPuts[i][path] || out[at].sure, arg: i, sub: path}
		}
	}
	return out
}

// sameFieldPuts reports whether two summaries' fieldPuts are equal.
func sameFieldPuts(a, b map[int]map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i, m := range a {
		n, ok := b[i]
		if !ok || len(m) != len(n) {
			return false
		}
		for k, v := range m {
			if w, ok := n[k]; !ok || w != v {
				return false
			}
		}
	}
	return true
}

// checkFieldPutAgain reports a call that puts the object at a field path
// of what it is passed, after an earlier call that put the object at the
// same place and left the field holding it: a Close that puts a field
// unless it is nil, after a method that put it without clearing it
// (grafana/mimir#11690: updateOneSidePresence, then Close). In-package
// summaries only.
func (c *checker) checkFieldPutAgain(fn *ssa.Function) {
	stored, calls := c.fieldPutCalls(fn, false, nil)
	for _, a := range calls {
		if !a.kept || storedAt(stored, a.at) {
			continue
		}
		if call, ok := a.instr.(*ssa.Call); ok && saysWhetherPut(call) {
			continue
		}
		for _, b := range calls {
			if b.instr == a.instr || b.at != a.at || !reachesKeeping(a.instr, b.instr, a.at.base) {
				continue
			}
			arg := callArgs(b.instr.Common())[b.arg]
			name := c.objName(&putSite{instr: b.instr, param: b.arg, key: rootOf(arg), arg: arg})
			c.report(checkDoublePut, b.instr.Pos(), nil,
				"this call puts %s again: the call at line %d already put it and left the field holding it, so two later Gets can return the same object; clear the field where it is put",
				fieldPathName(name, arg.Type(), b.sub), c.line(a.instr.Pos()))
			return
		}
	}
}

// fieldPathName names the field path path of a value of type t called
// name, for a message (s.group.presence).
func fieldPathName(name string, t types.Type, path string) string {
	for _, s := range strings.Split(path, ".") {
		i, _ := strconv.Atoi(s)
		st, ok := derefStruct(t)
		if !ok || i >= st.NumFields() {
			return name
		}
		name += "." + st.Field(i).Name()
		t = st.Field(i).Type()
	}
	return name
}

// reachesKeeping reports whether b can run after a with v still the value
// it was at a: no path through v's definition in between (a loop that gets
// a new request each iteration, net/http's conn.serve, makes a new w).
func reachesKeeping(a, b ssa.Instruction, v ssa.Value) bool {
	def, ok := v.(ssa.Instruction)
	if !ok || def.Block() == nil {
		return mayPrecede(a, b)
	}
	// index returns the position of x in its block.
	index := func(x ssa.Instruction) int {
		for i, y := range x.Block().Instrs {
			if y == x {
				return i
			}
		}
		return -1
	}
	ia := index(a)
	if a.Block() == b.Block() && ia < index(b) {
		return def.Block() != a.Block() || index(def) < ia || index(def) > index(b)
	}
	if def.Block() == a.Block() && index(def) > ia {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), a.Block().Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		if x == b.Block() && (def.Block() != x || index(def) > index(b)) {
			return true
		}
		if x == def.Block() {
			continue
		}
		work = append(work, x.Succs...)
	}
	return false
}

// endsLifecycle reports whether a method's name says that it ends its
// receiver's use (Close, Release, Free, finish...): calling it again is the
// caller's mistake, not the method's.
func endsLifecycle(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"close", "release", "free", "reset", "put", "recycle", "return", "finish", "done", "stop", "destroy", "dispose", "end", "flush", "discard", "clean", "teardown", "shutdown", "drop", "clear", "dealloc", "unref", "decref"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// checkKeptFieldUse reports, in a method that does not end its receiver's
// use, a use of a receiver field that the method itself puts back later and
// leaves in place: the next call uses an object the pool may have handed to
// another user (dgraph-io/dgraph#9641: Read puts its decoder on io.EOF, and
// a Read after EOF reads from it again).
func (c *checker) checkKeptFieldUse(fn *ssa.Function, puts []putSite) {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Parent() != nil || endsLifecycle(fn.Name()) {
		return
	}
	recv := fn.Params[0]
	for i := range puts {
		p := &puts[i]
		if p.key.cell || p.field || !trackable(p) {
			continue
		}
		ld, ok := p.key.v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL {
			continue
		}
		fa, ok := ld.X.(*ssa.FieldAddr)
		// A call given the receiver after the Put (i.renew()) may store
		// into the field.
		if !ok || fa.X != recv || storesTo(fn, fa) || firstUseAfter(fn, p.instr, recv) != nil {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(ssa.CallInstruction)
				if !ok || instr == p.instr || !mayPrecede(instr, p.instr) {
					continue
				}
				used := false
				for _, a := range append([]ssa.Value{ci.Common().Value}, ci.Common().Args...) {
					if u, ok := a.(*ssa.UnOp); ok && u.Op == token.MUL && sameLoc(u, ld) {
						used = true
					}
				}
				if !used {
					continue
				}
				c.report(checkUseAfterPut, instr.Pos(), nil,
					"%s is used here, but %s puts it back into the pool at line %d and leaves it in the field: the next call uses an object the pool may have handed to another user; clear the field after the Put",
					c.objName(p), fn.Name(), c.line(p.instr.Pos()))
				return
			}
		}
	}
}

// checkElemsUsed reports a call given a value whose slice field's elements
// an earlier call put back and left in place (b.Run() puts every b.actions
// element), when the callee reads that field: it finds put objects there
// (globalsign/mgo#199: Insert after Run appends to a put action).
func (c *checker) checkElemsUsed(fn *ssa.Function) {
	type elemCall struct { // a call that puts what a field holds, or its elements
		instr ssa.CallInstruction
		at    fieldLoc
		field int
		name  string
		elems bool // the field's elements were put, not what it holds
	}
	var puts []elemCall
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			ce, ok := c.calleeOf(&ci.Call)
			if !ok || ce.sum == nil || saysWhetherPut(ci) {
				continue
			}
			for at, fp := range ce.sum.fieldPutsAt(callArgs(&ci.Call)) {
				f, elems := strings.CutSuffix(fp.sub, "[]")
				if !fp.kept || strings.Contains(f, ".") || at.path != fp.sub {
					continue // one field of the argument itself
				}
				i, _ := strconv.Atoi(f)
				name := "the callee"
				if g := ci.Call.StaticCallee(); g != nil {
					name = g.Name()
				}
				puts = append(puts, elemCall{ci, at, i, name, elems})
			}
		}
	}
	for _, p := range puts {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ci, ok := instr.(*ssa.Call)
				if !ok || ssa.CallInstruction(ci) == p.instr || !reachesKeeping(p.instr, ci, p.at.base) {
					continue
				}
				g := ci.Call.StaticCallee()
				if g == nil || len(g.Blocks) == 0 {
					continue
				}
				for j, a := range callArgs(&ci.Call) {
					if a != p.at.base || j >= len(g.Params) || p.field >= 64 {
						continue
					}
					if c.paramFieldUse(g, j, 1).reads&(1<<p.field) == 0 {
						continue
					}
					if gs := c.sums[g]; gs != nil {
						if _, puts := gs.putParams[j]; puts || len(gs.fieldPuts[j]) > 0 {
							continue // it puts again: a doubleput, reported as one
						}
					}
					st, _ := derefStruct(a.Type())
					field := "a field"
					if st != nil && p.field < st.NumFields() {
						field = st.Field(p.field).Name()
					}
					format := "%s reads %s, which still holds what %s (line %d) put back into the pool: it works on an object another user may own; clear the field where it is put"
					if p.elems {
						format = "%s reads %s, whose elements %s (line %d) put back into the pool and left there: it works on objects another user may own; clear the slice where its elements are put"
					}
					c.report(checkUseAfterPut, ci.Pos(), nil, format, g.Name(), field, p.name, c.line(p.instr.Pos()))
					return
				}
			}
		}
	}
}

// storesAfter reports whether fn stores into the field at fa (another
// address of the same field counts) where that can run after at: a store
// before the Put (r.buf = acquire(); ...; put(r.buf)) leaves the field
// holding the put object. A deferred Put runs last.
func storesAfter(fn *ssa.Function, fa *ssa.FieldAddr, at ssa.Instruction) bool {
	if _, deferred := at.(*ssa.Defer); deferred {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if f, ok := st.Addr.(*ssa.FieldAddr); ok && f.Field == fa.Field && sameLoc(f.X, fa.X) && mayPrecede(at, st) {
					return true
				}
			}
		}
	}
	return false
}

// saysWhetherPut reports whether a call returns a bool that the caller
// uses: if !closeIfDone(r) { r.Close() } puts once, whichever way it goes.
func saysWhetherPut(call *ssa.Call) bool {
	if !isBool(call.Type()) {
		return false
	}
	refs := call.Referrers()
	return refs != nil && len(*refs) > 0
}
