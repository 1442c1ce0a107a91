package poolvet

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Classes of a value relative to the tracked object on one path.
const (
	notAlias uint8 = iota
	isAlias        // shares memory with the object
	isIdent        // is the object itself
)

// A tracker follows one pooled object through the control-flow graph of
// one function.
type tracker struct {
	c      *checker
	fn     *ssa.Function
	key    objKey
	static map[ssa.Value]bool // aliases on every path
	def    *ssa.BasicBlock    // entering it from the top redefines the object

	// For an object loaded from a field (pool.Put(i.buffer)), fcell is the
	// field's address and reloads are the other loads of the same field
	// of the same base in fn, and rstatic their aliases: they are the
	// object until a path stores into the field or passes the base to a
	// call, which may store into it (apache/pulsar-client-go#1347).
	fcell   *ssa.FieldAddr
	reloads map[ssa.Value]bool
	rstatic map[ssa.Value]bool

	// seed holds booleans known at the start of a walk: after a call that
	// puts only when a flag is true, the walk follows that case.
	seed map[ssa.Value]bool
	// pruneOrdering makes the walk skip the cases of a select that order
	// another goroutine's work first (see isHandOffSync); set by
	// walkAfterHandOff only.
	pruneOrdering bool

	// start is the block where the current walk starts; prePhis caches
	// the phis of blocks dominating it that merge the object with other
	// values (see class).
	start   *ssa.BasicBlock
	prePhis map[ssa.Value]bool

	// sendSel and sendCase: set while walking after a hand-off made by
	// case sendCase of the select sendSel (case ch <- b:).
	sendSel  *ssa.Select
	sendCase int

	// invariant caches invariantCell: 0 unknown, 1 no, 2 yes.
	invariant uint8

	// cellValid says that the reloads of fcell are the object at the start
	// of a walk, as its caller checked (checkKeptList).
	cellValid bool
}

// walkAfterHandOff is walk for the paths after a hand-off, which end at
// what orders the other user first: a sync (isHandOffSync) stops a path,
// and of a select only the cases that order nothing are followed.
func (t *tracker) walkAfterHandOff(from ssa.Instruction, visit func(ssa.Instruction, *path) action) {
	t.pruneOrdering = true
	defer func() { t.pruneOrdering = false }()
	if sel, ok := from.(*ssa.Select); ok {
		t.sendSel, t.sendCase = sel, -1
		for k, st := range sel.States {
			if st.Dir == types.SendOnly && st.Send != nil && t.class(&path{clobbered: true}, st.Send) != notAlias {
				t.sendCase = k
				break
			}
		}
		defer func() { t.sendSel = nil }()
	}
	t.walk(from, func(instr ssa.Instruction, p *path) action {
		if a := visit(instr, p); a != next {
			return a
		}
		if t.c.isHandOffSync(instr) {
			return stopPath
		}
		return next
	})
}

func (c *checker) newTracker(fn *ssa.Function, key objKey) *tracker {
	t := &tracker{c: c, fn: fn, key: key, static: c.aliasesOf(fn, key, false)}
	if !key.cell {
		if instr, ok := key.v.(ssa.Instruction); ok {
			t.def = instr.Block()
		}
		t.fieldCell()
	}
	return t
}

// fieldCell sets fcell and reloads when the object is a load of a field.
func (t *tracker) fieldCell() {
	u, ok := t.key.v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return
	}
	fa, ok := u.X.(*ssa.FieldAddr)
	if _, slice := u.Type().Underlying().(*types.Slice); !ok || !pointerLike(u.Type()) && !slice {
		return // two loads of a slice field share its backing array, too
	}
	t.fcell = fa
	for _, l := range fieldReloads(t.fn, u) {
		if t.reloads == nil {
			t.reloads, t.rstatic = map[ssa.Value]bool{}, map[ssa.Value]bool{}
		}
		t.reloads[l] = true
		for v := range t.c.aliasesOf(t.fn, objKey{l, false}, false) {
			t.rstatic[v] = true
		}
	}
}

// fieldReloads returns the other loads in fn of the address that the load
// u reads (the same field of the same base).
func fieldReloads(fn *ssa.Function, u *ssa.UnOp) []*ssa.UnOp {
	var out []*ssa.UnOp
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if l, ok := instr.(*ssa.UnOp); ok && l != u && l.Op == token.MUL && sameAddr(l.X, u.X, 0) {
				out = append(out, l)
			}
		}
	}
	return out
}

// cellValidAt reports whether the reloads of the field cell are the object
// right after from: the object was loaded in from's block, before it, with
// nothing on the way that may store into the field (old := p.h; p.h =
// get(); put(old) puts what the field no longer holds).
func (t *tracker) cellValidAt(from ssa.Instruction) bool {
	load := t.key.v.(ssa.Instruction)
	if load.Block() != from.Block() {
		return false
	}
	seen := false
	for _, instr := range from.Block().Instrs {
		switch {
		case instr == load:
			seen = true
		case instr == from:
			return seen
		case seen && t.clobbers(instr):
			return false
		}
	}
	return false
}

// pointerLike reports whether a value of type t refers to its object by
// pointer, so that two loads of a field holding it name the same object.
func pointerLike(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan:
		return true
	}
	return false
}

// clobbers reports whether instr may give the field cell another value: a
// store into the field, a call that is passed its base, or the definition
// of its base or of a value the base is loaded from (a loop's next
// element: for _, p := range ps { put(p.buf) }).
func (t *tracker) clobbers(instr ssa.Instruction) bool {
	if v, ok := instr.(ssa.Value); ok {
		for b := ssa.Value(t.fcell.X); b != nil; {
			if b == v {
				return true
			}
			switch x := b.(type) {
			case *ssa.UnOp:
				b = x.X
			case *ssa.FieldAddr:
				b = x.X
			case *ssa.IndexAddr:
				b = x.X
			default:
				b = nil
			}
		}
	}
	switch x := instr.(type) {
	case *ssa.Store:
		if sameAddr(x.Addr, t.fcell, 0) {
			return true
		}
		// A store of a whole struct that holds the field (b = next()
		// for a local b whose b.recs is the object).
		for a := t.fcell.X; a != nil; {
			if x.Addr == a {
				return true
			}
			fa, ok := a.(*ssa.FieldAddr)
			if !ok {
				break
			}
			a = fa.X
		}
		return false
	case ssa.CallInstruction:
		com := x.Common()
		for _, a := range append([]ssa.Value{com.Value}, com.Args...) {
			if a == t.fcell.X || sameLoc(a, t.fcell.X) {
				return true
			}
		}
	}
	return false
}

// A path holds what holds on one path besides the static aliases: the phis
// that carry the object along the edges taken.
type path struct {
	phis map[ssa.Value]uint8
	// flags holds the boolean phis whose incoming value on the edge taken
	// was a constant, so that a later branch on the same flag follows
	// only the side that this path can take.
	flags map[ssa.Value]bool
	// clobbered is set once the path passed an instruction that may
	// store another object into the tracked field cell: reloads of the
	// field are no longer the object.
	clobbered bool
}

// class returns how v relates to the object on path p.
func (t *tracker) class(p *path, v ssa.Value) uint8 {
	if c := p.phis[v]; c != notAlias {
		return c
	}
	if !t.static[v] {
		if ph, ok := v.(*ssa.Phi); ok && t.prePhi(ph) {
			// buf chosen before the Put, on some paths the object's
			// memory (if fits { buf = b.buf[:m] } else { buf = make() };
			// put(b.buf); b.buf = buf, pquerna/ffjson#204): the paths
			// into the Put went through both edges.
			return isAlias
		}
		if t.rstatic[v] && !p.clobbered {
			if t.reloads[rootOf(v).v] {
				return isIdent
			}
			return isAlias
		}
		return notAlias
	}
	if t.key.cell {
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == t.key.v {
			return isIdent
		}
	} else if v == t.key.v || rootOf(v).v == t.key.v {
		return isIdent
	}
	return isAlias
}

// invariantCell reports whether the object is a load of a field whose base
// is the same on every iteration of the loop around the load (p.buffer for
// a parameter p): reloading it on the next iteration, with no store on the
// way (the path is not clobbered), gives the same object, so the walk goes
// on through its definition (quic-go/quic-go#1807: a Put of p.buffer once
// per coalesced packet).
func (t *tracker) invariantCell() bool {
	if t.invariant != 0 {
		return t.invariant == 2
	}
	t.invariant = 1
	if t.fcell == nil || t.def == nil {
		return false
	}
	loop := loopOf(t.def)
	if loop == nil {
		return false
	}
	for v := ssa.Value(t.fcell); v != nil; {
		// The field address itself is recomputed each iteration; what it
		// is computed from must not be.
		if instr, ok := v.(ssa.Instruction); ok && instr.Block() != nil && loop[instr.Block()] && v != t.fcell {
			return false
		}
		switch x := v.(type) {
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
			v = nil
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Alloc:
			v = nil
		default:
			return false
		}
	}
	t.invariant = 2
	return true
}

// keptByPhi reports whether the object is a phi of succ whose incoming
// value from pred is the phi itself: a loop variable that the path from
// pred leaves as it is (a Put then continue, wireguard-go d2fd0c0), so that
// the next iteration has the same object.
func (t *tracker) keptByPhi(pred, succ *ssa.BasicBlock) bool {
	ph, ok := t.key.v.(*ssa.Phi)
	if !ok || t.key.cell || ph.Block() != succ {
		return false
	}
	for i, p := range succ.Preds {
		if p == pred && i < len(ph.Edges) {
			return ph.Edges[i] == ph
		}
	}
	return false
}

// prePhi reports whether ph, in a block that dominates the start of the
// walk, has an edge that is an alias of the object on every path (or of a
// reload of its field): a value chosen before the Put that is the object's
// memory on some of the paths that reach it.
func (t *tracker) prePhi(ph *ssa.Phi) bool {
	if t.start == nil || ph.Block() == nil || !ph.Block().Dominates(t.start) {
		return false
	}
	if v, ok := t.prePhis[ph]; ok {
		return v
	}
	if t.prePhis == nil {
		t.prePhis = map[ssa.Value]bool{}
	}
	// A phi the walk comes back to (a loop header, the Put inside the
	// loop) gets the back edge's value there, which the path follows
	// itself: a buffer replaced after the old one was put (grpc's ALTS
	// record reader) is not the object.
	t.prePhis[ph] = !reachesFrom(t.start.Succs, ph.Block()) && t.phiCarries(ph, map[*ssa.Phi]bool{})
	return t.prePhis[ph]
}

// phiCarries reports whether an edge of ph is an alias of the object (or
// of a reload of its field), or an inner phi that carries it: the value of
// a variable set in an inner loop reaches the outer loop's phi through the
// inner one (var last *E; for { for { last = newErr(ts.Labels) } },
// grafana/cortex#25).
func (t *tracker) phiCarries(ph *ssa.Phi, seen map[*ssa.Phi]bool) bool {
	seen[ph] = true
	for _, e := range ph.Edges {
		if t.static[e] || t.rstatic[e] {
			return true
		}
		if inner, ok := e.(*ssa.Phi); ok && !seen[inner] {
			if carries, only := t.onlyObject(inner, seen); carries && only {
				return true
			}
		}
	}
	return false
}

// onlyObject reports, for an inner phi, whether it carries the object
// (carries) and whether every edge is the object, a constant (nil) or such
// a phi (only): a variable that holds the object or nothing. A phi with
// another value on some edge (w, x = x, w in a loop of swaps between
// pooled workspaces, gonum's Dense.Pow) is not followed.
func (t *tracker) onlyObject(ph *ssa.Phi, seen map[*ssa.Phi]bool) (carries, only bool) {
	seen[ph] = true
	for _, e := range ph.Edges {
		switch x := e.(type) {
		case *ssa.Const:
			continue
		case *ssa.Phi:
			if seen[x] {
				continue
			}
			c, o := t.onlyObject(x, seen)
			if !o {
				return false, false
			}
			carries = carries || c
		default:
			if !t.static[e] && !t.rstatic[e] {
				return false, false
			}
			carries = true
		}
	}
	return carries, true
}

// sameObject reports whether key names the tracked object on path p.
func (t *tracker) sameObject(p *path, key objKey) bool {
	if key == t.key {
		return true
	}
	return !key.cell && t.class(p, key.v) == isIdent
}

type action int

const (
	next     action = iota // go on
	stopPath               // do not follow this path further
	stopAll                // end the walk
)

// walk calls visit for each instruction reachable after from, following
// every path until the object is redefined (a new value or a store into its
// variable), visit asks to stop, or the function returns.
func (t *tracker) walk(from ssa.Instruction, visit func(ssa.Instruction, *path) action) {
	type item struct {
		b     *ssa.BasicBlock
		start int
		p     *path
	}
	start := -1
	for i, instr := range from.Block().Instrs {
		if instr == from {
			start = i + 1
		}
	}
	if start < 0 {
		return
	}
	if t.start != from.Block() {
		t.start, t.prePhis = from.Block(), nil
	}
	first := &path{}
	if t.fcell != nil && !t.cellValid && !t.cellValidAt(from) {
		first.clobbered = true
	}
	if t.seed != nil {
		first.flags = map[ssa.Value]bool{}
		for k, v := range t.seed {
			first.flags[k] = v
		}
	}
	// The branches taken to reach the start: if len(x) == 0 { Put(nd) }
	// starts with len(x) == 0 known true.
	dominatingBranches(from.Block(), func(cond ssa.Value, taken bool) bool {
		if _, known := first.flags[cond]; !known {
			if first.flags == nil {
				first.flags = map[ssa.Value]bool{}
			}
			first.flags[cond] = taken
		}
		return true
	})
	work := []item{{from.Block(), start, first}}
	// visited holds, for each block walked, the branch conditions known
	// on the paths that reached it. A block reached again on a path that
	// knows less is walked again knowing only what both knew: the first
	// path's knowledge (traceEnable true) must not hide what follows a
	// later branch on it on the other path (youzan/nsq 2d099a3). Each
	// re-walk drops a condition, so a block is walked at most once more
	// than the conditions it started with.
	visited := map[*ssa.BasicBlock]map[ssa.Value]bool{}
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		p := it.p
		stopped := false
		for _, instr := range it.b.Instrs[it.start:] {
			if _, ok := instr.(*ssa.Phi); ok {
				continue
			}
			if kv, ok := t.key.v.(ssa.Instruction); ok && !t.key.cell && kv == instr && p.clobbered {
				stopped = true // a reload after a store: another object
				break
			}
			if t.key.cell {
				if st, ok := instr.(*ssa.Store); ok && st.Addr == t.key.v && !reloadOf(st.Val, t.key.v) {
					stopped = true
					break
				}
				if v, ok := instr.(ssa.Value); ok && v == t.key.v {
					stopped = true
					break
				}
			}
			switch visit(instr, p) {
			case stopAll:
				return
			case stopPath:
				stopped = true
			}
			if t.fcell != nil && !p.clobbered && t.clobbers(instr) {
				p = &path{phis: p.phis, flags: p.flags, clobbered: true}
			}
			if noReturn(instr) {
				stopped = true // t.Fatalf, log.Fatal, os.Exit: nothing runs after it
			}
			if stopped {
				break
			}
		}
		if stopped {
			continue
		}
		succs := it.b.Succs
		if ifi, ok := lastInstr(it.b).(*ssa.If); ok && len(succs) == 2 {
			if sel, k, ok := selectCase(ifi.Cond); ok && t.sendSel != nil && sel == t.sendSel {
				// After a hand-off in a select's send case: only that
				// case's paths follow it.
				if k == t.sendCase {
					succs = succs[:1]
				} else {
					succs = succs[1:]
				}
			} else if ok && t.pruneOrdering && orderingCase(sel, k) {
				succs = succs[1:]
			} else if v, known := p.eval(ifi.Cond); known {
				if v {
					succs = succs[:1]
				} else {
					succs = succs[1:]
				}
			}
		}
		ifi, isIf := lastInstr(it.b).(*ssa.If)
		for _, succ := range succs {
			if succ == t.def && !(t.invariantCell() && !p.clobbered) && !t.keptByPhi(it.b, succ) {
				continue
			}
			seen, again := visited[succ]
			if again && len(seen) == 0 {
				continue
			}
			np := t.enter(p, it.b, succ)
			if isIf && len(it.b.Succs) == 2 && it.b.Succs[0] != it.b.Succs[1] {
				if _, known := np.eval(ifi.Cond); !known {
					np = np.with(ifi.Cond, succ == it.b.Succs[0])
				}
			}
			if again {
				common := map[ssa.Value]bool{}
				for k, v := range seen {
					if w, ok := np.flags[k]; ok && w == v {
						common[k] = v
					}
				}
				if len(common) == len(seen) {
					continue
				}
				np = &path{phis: np.phis, flags: common, clobbered: np.clobbered}
			}
			visited[succ] = np.flags
			if visited[succ] == nil {
				visited[succ] = map[ssa.Value]bool{}
			}
			work = append(work, item{succ, 0, np})
		}
	}
}

// enter returns the path after taking the edge from pred to b: each phi of
// b carries the class of its incoming value.
func (t *tracker) enter(p *path, pred, b *ssa.BasicBlock) *path {
	idx := -1
	for i, q := range b.Preds {
		if q == pred {
			idx = i
			break
		}
	}
	np := p
	clone := func() {
		if np == p {
			np = &path{phis: make(map[ssa.Value]uint8, len(p.phis)+1), flags: make(map[ssa.Value]bool, len(p.flags)), clobbered: p.clobbered}
			for k, v := range p.phis {
				np.phis[k] = v
			}
			for k, v := range p.flags {
				np.flags[k] = v
			}
		}
	}
	// Entering b from the top computes its values anew (a loop's next
	// iteration): what the path knew of the old ones no longer holds.
	for k := range p.flags {
		if in, ok := k.(ssa.Instruction); ok && in.Block() == b {
			if _, phi := k.(*ssa.Phi); !phi {
				clone()
				delete(np.flags, k)
			}
		}
	}
	for _, instr := range b.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if idx >= 0 && isBool(phi.Type()) {
			v, known := p.eval(phi.Edges[idx])
			if old, had := np.flags[phi]; known != had || known && old != v {
				clone()
				if known {
					np.flags[phi] = v
				} else {
					delete(np.flags, phi)
				}
			}
		}
		if idx < 0 || t.static[phi] {
			continue
		}
		c := t.class(p, phi.Edges[idx])
		if c == np.phis[phi] {
			continue
		}
		clone()
		if c == notAlias {
			delete(np.phis, phi)
			continue
		}
		np.phis[phi] = c
		for v := range t.c.aliasesOf(t.fn, objKey{phi, false}, false) {
			if v != phi && np.phis[v] == notAlias {
				np.phis[v] = isAlias
			}
		}
	}
	// A comparison in b of one of b's phis is the comparison of the value
	// that came in on this edge: for err == nil { x, err = read(); if err
	// != nil { break }; ...; put(x) } goes round again after the Put, err
	// known nil, and never leaves by the loop condition there.
	if idx >= 0 {
		edge := func(v ssa.Value) ssa.Value {
			if ph, ok := v.(*ssa.Phi); ok && ph.Block() == b && idx < len(ph.Edges) {
				return ph.Edges[idx]
			}
			return v
		}
		for _, instr := range b.Instrs {
			x, ok := instr.(*ssa.BinOp)
			if !ok {
				continue
			}
			sx, sy := edge(x.X), edge(x.Y)
			if sx == x.X && sy == x.Y {
				continue
			}
			sub := &ssa.BinOp{Op: x.Op, X: sx, Y: sy}
			for k, kv := range p.flags {
				kb, ok := k.(*ssa.BinOp)
				if !ok {
					continue
				}
				if v, known := implied(kb, kv, sub); known {
					clone()
					np.flags[x] = v
					break
				}
			}
		}
	}
	return np
}

// eval returns the value of a boolean on path p, if known: a constant, a
// flag phi whose incoming value was a constant, or the negation of one.
func (p *path) eval(v ssa.Value) (value, known bool) {
	if value, known = p.flags[v]; known {
		return value, known
	}
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Bool {
			return constant.BoolVal(x.Value), true
		}
	case *ssa.UnOp:
		if x.Op == token.NOT {
			value, known = p.eval(x.X)
			return !value, known
		}
		if x.Op == token.MUL && neverStored(x.X) {
			// Two loads of a captured variable that the function never
			// assigns (a closure's copy of a flag parameter) are equal.
			for k, kv := range p.flags {
				if ku, ok := k.(*ssa.UnOp); ok && ku.Op == token.MUL && ku.X == x.X {
					return kv, true
				}
			}
		}
	case *ssa.BinOp:
		// A comparison of the same operands as one the path took a branch
		// on: len(x) > 0 after len(x) == 0 was true.
		for k, kv := range p.flags {
			if b, ok := k.(*ssa.BinOp); ok {
				if value, known = implied(b, kv, x); known {
					return value, known
				}
				if value, known = impliedField(b, kv, x); known {
					return value, known
				}
			}
		}
	}
	return false, false
}

// neverStored reports whether addr is a free variable or a local variable
// that no instruction stores into after its definition: every load of it
// reads the same value. A captured variable is also assigned by the
// enclosing function, which the closure sees as a store of its own only
// when it runs there; a FreeVar counts only if the enclosing function
// stores into it once, before making the closure.
func neverStored(addr ssa.Value) bool {
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if st, ok := r.(*ssa.Store); ok && st.Addr == addr {
			return false
		}
	}
	fv, ok := addr.(*ssa.FreeVar)
	if !ok {
		return false
	}
	for _, b := range bindingsOf(fv.Parent(), fv) {
		a, ok := b.(*ssa.Alloc)
		if !ok || a.Referrers() == nil || len(localStores(a)) > 1 {
			return false
		}
	}
	return true
}

// with returns p with the boolean v known to be val.
func (p *path) with(v ssa.Value, val bool) *path {
	np := &path{phis: p.phis, flags: make(map[ssa.Value]bool, len(p.flags)+1), clobbered: p.clobbered}
	for k, x := range p.flags {
		np.flags[k] = x
	}
	np.flags[v] = val
	return np
}

// orderings maps a comparison to the orderings of its operands (bit 0: <,
// bit 1: ==, bit 2: >) for which it is true.
var orderings = map[token.Token]uint8{
	token.LSS: 1, token.EQL: 2, token.GTR: 4,
	token.LEQ: 3, token.GEQ: 6, token.NEQ: 5,
}

// mirror swaps the operands of an ordering set: a < b is b > a.
func mirror(o uint8) uint8 { return o&2 | o&1<<2 | o&4>>2 }

// implied reports what comparison x is when comparison k is kv, if k
// compares the same operands (in either order).
func implied(k *ssa.BinOp, kv bool, x *ssa.BinOp) (value, known bool) {
	ko, ok1 := orderings[k.Op]
	xo, ok2 := orderings[x.Op]
	if !ok1 || !ok2 {
		return false, false
	}
	switch {
	case sameValue(k.X, x.X, 2) && sameValue(k.Y, x.Y, 2):
	case sameValue(k.X, x.Y, 2) && sameValue(k.Y, x.X, 2):
		ko = mirror(ko)
	default:
		return false, false
	}
	if !kv {
		ko = 7 &^ ko
	}
	if ko == 0 {
		return false, false
	}
	if ko&^xo == 0 {
		return true, true
	}
	if ko&xo == 0 {
		return false, true
	}
	return false, false
}

// impliedField evaluates x, a comparison of a field with a constant
// (b.kind == "audio"), on a path where k, a comparison of the same field of
// the same base with a constant, was kv (b.kind == "video" true): a field
// the function never stores into holds one value, so the two tests exclude
// each other (pion/ion-sfu eb01437's two Puts under codec tests).
func impliedField(k *ssa.BinOp, kv bool, x *ssa.BinOp) (value, known bool) {
	kb, kf, kc, ok1 := fieldConstTest(k)
	xb, xf, xc, ok2 := fieldConstTest(x)
	if !ok1 || !ok2 || !sameBase(kb, xb) || kf != xf || fieldStoredIn(x.Parent(), xb, xf) || fieldStoredIn(x.Parent(), kb, kf) {
		return false, false
	}
	same := constant.Compare(kc.Value, token.EQL, xc.Value)
	var eq bool // x's field == xc
	switch kEq := (k.Op == token.EQL) == kv; {
	case kEq: // the field is kc
		eq = same
	case same: // the field is not kc, which is xc
		eq = false
	default:
		return false, false
	}
	if x.Op == token.NEQ {
		return !eq, true
	}
	return eq, true
}

// fieldConstTest returns the base, field and constant of b when b is
// base.field == c or base.field != c, with c a constant of a basic kind.
func fieldConstTest(b *ssa.BinOp) (ssa.Value, int, *ssa.Const, bool) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return nil, 0, nil, false
	}
	x, y := b.X, b.Y
	c, ok := y.(*ssa.Const)
	if !ok {
		x, y = y, x
		c, ok = y.(*ssa.Const)
	}
	if !ok || c.Value == nil {
		return nil, 0, nil, false
	}
	_, _, fa := fieldChain(x)
	if fa == nil {
		return nil, 0, nil, false
	}
	return fa.X, fa.Field, c, true
}

// sameBase reports whether a and b are the same pointer: one value, or
// two loads of a variable never stored into after its definition (a
// closure's captured receiver).
func sameBase(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	return ok1 && ok2 && la.Op == token.MUL && lb.Op == token.MUL && la.X == lb.X && neverStored(la.X)
}

// fieldStoredIn reports whether fn stores into field f of base.
func fieldStoredIn(fn *ssa.Function, base ssa.Value, f int) bool {
	if fn == nil {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && sameBase(fa.X, base) && fa.Field == f {
					return true
				}
			}
		}
	}
	return false
}

// sameValue reports whether a and b are the same value: the same SSA value,
// equal constants, or len or cap of the same value.
func sameValue(a, b ssa.Value, depth int) bool {
	if a == b {
		return true
	}
	if ka, ok := a.(*ssa.Const); ok {
		kb, ok := b.(*ssa.Const)
		if ok && ka.Value == nil && kb.Value == nil {
			return types.Identical(ka.Type(), kb.Type()) && ka.IsNil() // nil and nil
		}
		return ok && ka.Value != nil && kb.Value != nil && ka.Value.Kind() == kb.Value.Kind() &&
			types.Identical(ka.Type(), kb.Type()) && constant.Compare(ka.Value, token.EQL, kb.Value)
	}
	ca, ok1 := a.(*ssa.Call)
	cb, ok2 := b.(*ssa.Call)
	if !ok1 || !ok2 || depth == 0 {
		return false
	}
	ba, ok1 := ca.Call.Value.(*ssa.Builtin)
	bb, ok2 := cb.Call.Value.(*ssa.Builtin)
	return ok1 && ok2 && ba.Name() == bb.Name() && (ba.Name() == "len" || ba.Name() == "cap") &&
		len(ca.Call.Args) == 1 && len(cb.Call.Args) == 1 && sameValue(ca.Call.Args[0], cb.Call.Args[0], depth-1)
}

// usesObject reports whether instr reads or writes the memory of the object
// through one of its operands on path p. Instructions that only derive an
// alias (slicing, taking a field address, converting) do not count: the use
// of the alias does. Comparisons and len/cap of a slice header do not count.
func (t *tracker) usesObject(instr ssa.Instruction, p *path) bool {
	switch x := instr.(type) {
	case *ssa.DebugRef, *ssa.Phi, *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.ChangeType,
		*ssa.ChangeInterface, *ssa.MakeInterface, *ssa.TypeAssert, *ssa.Extract, *ssa.MakeClosure,
		*ssa.SliceToArrayPointer, *ssa.Field, *ssa.Index:
		return false
	case *ssa.BinOp:
		if x.Op == token.EQL || x.Op == token.NEQ {
			return false
		}
	case *ssa.Store:
		if a, ok := x.Addr.(*ssa.Alloc); ok && !a.Heap && (isZeroConst(x.Val) || t.class(p, x.Val) == notAlias) {
			// Clearing or overwriting a local variable or result slot
			// that may hold the object (return nil, err or return
			// errorResponse(...) in a function with a defer) writes the
			// slot, not the object.
			return false
		}
		if t.class(p, x.Addr) != notAlias {
			return true
		}
		if localRoot(x.Addr) != nil {
			return false // copying a reference into a local variable
		}
	case *ssa.UnOp:
		// The load of a result slot at a return, in a function with a
		// defer (*t1 = nil; rundefers; t = *t1; return ...), reads what
		// this block stored there last, not the object another path
		// stored (pkg/sftp#649's fixed dispatch).
		if a, ok := x.X.(*ssa.Alloc); ok && !a.Heap && x.Op == token.MUL {
			if v, ok := lastStoreBefore(a, x); ok && (isZeroConst(v) || t.class(p, v) == notAlias) {
				return false
			}
		}
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok {
			switch b.Name() {
			case "len", "cap":
				if _, isPtr := x.Call.Args[0].Type().Underlying().(*types.Pointer); !isPtr {
					return false
				}
			}
		}
	}
	var buf [8]*ssa.Value
	for _, op := range instr.Operands(buf[:0]) {
		if *op != nil && t.class(p, *op) != notAlias && t.heldOnPath(p, *op) {
			return true
		}
	}
	return false
}

// lastStoreBefore returns the value of the last store into the local a
// that comes before instr in instr's block.
func lastStoreBefore(a *ssa.Alloc, instr ssa.Instruction) (ssa.Value, bool) {
	var v ssa.Value
	for _, in := range instr.Block().Instrs {
		if in == instr {
			return v, v != nil
		}
		if st, ok := in.(*ssa.Store); ok && st.Addr == a {
			v = st.Val
		}
	}
	return nil, false
}

// holdsAlias reports whether fn stores an alias of the object into a field
// of v, a pointer it did not allocate (resp.Body = io.NopCloser(
// bytes.NewReader(buf.Bytes())); return resp): returning v returns the
// object's memory (git-spice#921). The store must run on every path to
// the return at.
func (t *tracker) holdsAlias(v ssa.Value, at ssa.Instruction) bool {
	if _, ok := v.Type().Underlying().(*types.Pointer); !ok {
		return false
	}
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != v {
			continue
		}
		for _, u := range *fa.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == fa && t.static[st.Val] && st.Block().Dominates(at.Block()) {
				return true
			}
		}
	}
	return false
}

// heldOnPath reports whether v, an alias of the object, is one on path p.
// A local aggregate is an alias because an alias of the object was stored
// into it (in.RawBody = buf.Bytes()); when every such store is in a block
// that p's known branch conditions exclude (it ran only if hasRawBody, and
// p is a path where hasRawBody is false), it does not hold the object on
// p (danielgtaylor/huma#553's fixed handler).
func (t *tracker) heldOnPath(p *path, v ssa.Value) bool {
	if len(p.flags) == 0 {
		return true
	}
	var a *ssa.Alloc
	switch x := v.(type) {
	case *ssa.Alloc:
		a = x
	case *ssa.UnOp:
		if x.Op == token.MUL {
			a = localRoot(x.X)
		}
	case *ssa.FieldAddr:
		a = localRoot(x)
	}
	if a == nil || a == t.key.v || t.static[a] && rootOf(a).v == t.key.v {
		return true
	}
	var stores []*ssa.Store
	var visit func(addr ssa.Value, depth int)
	visit = func(addr ssa.Value, depth int) {
		refs := addr.Referrers()
		if refs == nil || depth > 3 {
			return
		}
		for _, r := range *refs {
			switch x := r.(type) {
			case *ssa.Store:
				if x.Addr == addr && t.class(&path{}, x.Val) != notAlias {
					stores = append(stores, x)
				}
			case *ssa.FieldAddr:
				visit(x, depth+1)
			case *ssa.IndexAddr:
				visit(x, depth+1)
			}
		}
	}
	visit(a, 0)
	if len(stores) == 0 {
		return true // an alias for another reason
	}
	for _, st := range stores {
		if !p.excludes(st.Block()) {
			return true
		}
	}
	return false
}

// excludes reports whether the branch conditions known on p rule out that
// block b ran: one of the branches that lead to b (on its dominator chain)
// went the other way.
func (p *path) excludes(b *ssa.BasicBlock) bool {
	excluded := false
	dominatingBranches(b, func(cond ssa.Value, taken bool) bool {
		if v, known := p.eval(cond); known && v != taken {
			excluded = true
		}
		return !excluded
	})
	return excluded
}

// dominatingBranches calls visit, from b up its dominator tree, for each
// branch that every path to b takes: the condition of an If whose one
// successor is the only way into a dominator, and the value it has on
// that side. It stops when visit returns false.
func dominatingBranches(b *ssa.BasicBlock, visit func(cond ssa.Value, taken bool) bool) {
	for d := b; d != nil; d = d.Idom() {
		if len(d.Preds) != 1 {
			continue
		}
		pred := d.Preds[0]
		ifi, ok := lastInstr(pred).(*ssa.If)
		if !ok || len(pred.Succs) != 2 || pred.Succs[0] == pred.Succs[1] {
			continue
		}
		if !visit(ifi.Cond, d == pred.Succs[0]) {
			return
		}
	}
}

// noReturnNames are the functions and methods, by package path and name,
// that never return to their caller.
var noReturnNames = map[string]bool{
	"testing.Fatal": true, "testing.Fatalf": true, "testing.FailNow": true,
	"testing.Skip": true, "testing.Skipf": true, "testing.SkipNow": true,
	"log.Fatal": true, "log.Fatalf": true, "log.Fatalln": true,
	"log.Panic": true, "log.Panicf": true, "log.Panicln": true,
	"os.Exit": true, "runtime.Goexit": true,
}

// noReturn reports whether instr is a call that never returns.
func noReturn(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	var obj *types.Func
	if call.Call.IsInvoke() {
		obj = call.Call.Method
	} else if fn := call.Call.StaticCallee(); fn != nil {
		obj, _ = fn.Object().(*types.Func)
	}
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	return noReturnNames[obj.Pkg().Path()+"."+obj.Name()]
}

// reloadOf reports whether v is a load of the variable cell: storing it
// back (*meta = *meta, what a return of a named result writes before the
// deferred calls run) leaves the variable holding the same object.
func reloadOf(v, cell ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.MUL && u.X == cell
}
