package poolvet

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

var sprintf = fmt.Sprintf

// checkFunc runs every check on one function.
func (c *checker) checkFunc(fn *ssa.Function) {
	puts, gets := c.sites(fn)
	if *enabled[checkNoReset] {
		c.checkStaleElems(fn, puts) // a Reset method has no Put of its own
		c.checkResetForgets(fn)
		c.checkInitForgets(fn)
		c.checkShadowedReset(fn)
		c.checkDecodeIntoTruncated(fn)
	}
	c.checkPutInto(fn) // the Put is in a callee
	c.checkElemsUsed(fn)
	c.checkFieldUsedAfterCallPut(fn)
	c.checkChanPoolUnbounded(fn)
	c.checkDirtyGetter(fn)
	c.checkSendPut(fn) // the Put is in the receiver
	c.checkParamViewAfterPut(fn)
	c.checkPooledParamGo(fn)
	c.checkNoopReslice(fn)
	c.checkIfaceGetType(fn)
	c.checkReceiverViewKept(fn) // the Put is in the receiver's user
	if len(puts) == 0 && len(gets) == 0 {
		c.checkViewAfterPut(fn)
		return
	}
	if *enabled[checkNoReset] {
		c.checkArmedTimers(fn, gets)
		c.checkReinitForgets(fn, gets)
		c.checkReadCountIgnored(fn, gets)
	}
	c.checkPutPaths(fn, puts)
	c.checkViewAfterPut(fn) // after checkPutPaths, which says it better where both see it
	c.checkHandOffs(fn, puts)
	c.checkGoPuts(fn, puts)
	c.checkFieldAddrPut(fn, puts)
	c.checkDeferOrder(fn, puts)
	c.checkDeferredUse(fn, puts)
	c.checkCloseAgain(fn, puts)
	c.checkKeptList(fn, puts)
	c.checkKeptFieldElems(fn, puts)
	c.checkCachedPut(fn, puts)
	c.checkLazyCell(fn, puts)
	c.checkFieldPutAgain(fn)
	c.checkHandedPut(fn, puts)
	c.checkCallbackPut(fn, puts)
	c.checkElemHeldElsewhere(fn, puts)
	c.checkKeptFieldUse(fn, puts)
	c.checkReadPutsSelf(fn, puts)
	c.checkSeenSetPut(fn, puts)
	c.checkNoReset(fn, puts, gets)
	if *enabled[checkNoReset] {
		c.checkResetAcross(fn, puts, gets)
	}
	for i := range puts {
		c.checkStalePut(fn, &puts[i], gets)
		c.checkRetainPut(fn, &puts[i])
		c.checkForgottenAppend(fn, &puts[i])
		c.checkSharedElems(&puts[i])
		c.checkArrayNoReset(fn, &puts[i])
		if *enabled[checkNoReset] {
			c.checkResetFailedPut(fn, &puts[i])
			c.checkShortenedPut(fn, &puts[i])
			c.checkUntruncatedPut(fn, &puts[i])
			c.checkClosedChanPut(fn, &puts[i])
			c.checkUndrainedChanPut(fn, &puts[i])
			c.checkShortenedValuePut(fn, &puts[i])
		}
	}
	for _, p := range puts {
		c.checkNonPointer(p)
		c.checkUnbounded(fn, p)
		c.checkFieldsUnlikeOthers(fn, p)
		c.checkFieldBoundElsewhere(fn, p)
		c.checkFieldResetTrunc(&p)
		c.checkPutType(fn, p)
	}
	for _, g := range gets {
		c.checkGetType(g)
	}
}

// checkPutPaths follows each put object along the paths after its Put and
// reports uses (useafterput) and second Puts (doubleput).
func (c *checker) checkPutPaths(fn *ssa.Function, puts []putSite) {
	putAt := map[ssa.Instruction][]*putSite{}
	for i := range puts {
		putAt[puts[i].instr] = append(putAt[puts[i].instr], &puts[i])
	}
	doubled := map[ssa.Instruction]bool{}
	double := func(q, p *putSite, format string) {
		if doubled[q.instr] {
			return
		}
		doubled[q.instr] = true
		if p.reuse || q.reuse {
			format = "%s may be put into the pool twice (the other Put is at line %d): the flag that makes a second call return early is cleared when the object is got again, so by then another user may own it; drop one of the two calls"
		}
		c.report(checkDoublePut, q.instr.Pos(), nil, format, c.objName(q), c.line(p.instr.Pos()))
	}
	for i := range puts {
		p := &puts[i]
		if !trackable(p) && !p.key.cell && !p.cond && !p.deferred && types.IsInterface(p.key.v.Type()) && !isConst(p.key.v) {
			// An interface value of unknown content: its uses say
			// nothing, but a second Put of the very same value on a path
			// is a second Put of whatever it holds (if enc == JSON {
			// jsonPool.Put(e) }; protoPool.Put(e): centrifugal/centrifuge
			// e33dcc85).
			c.newTracker(fn, p.key).walk(p.instr, func(instr ssa.Instruction, _ *path) action {
				for _, q := range putAt[instr] {
					if q != p && !q.cond && q.key.v == p.key.v && !q.key.cell {
						double(q, p, "%s is put into the pool twice (first at line %d): two later Gets can return the same object")
						return stopAll
					}
				}
				return next
			})
			continue
		}
		if !trackable(p) || p.key.cell && onlyNil(p.key.v) {
			continue
		}
		if p.cond && p.field && p.guard > 0 && !p.setsGuard && !p.deferred {
			c.checkGuardedAgain(fn, p, puts, putAt)
		}
		if p.cond && !p.reuse {
			// The callee may not put it: no use is reported, but a later
			// Put that always puts it is a double Put on the paths where
			// the callee did, unless the caller looks at what the callee
			// returned (if !r.recycleIfDone() { ...; Put(r) }).
			if !p.deferred && (p.outcome || !resultUsed(p.instr)) {
				t := c.newTracker(fn, p.key)
				if p.condOn != nil {
					// It puts where the flag has that value: follow only
					// those paths (if !done { put(r) } after it is fine).
					t.seed = map[ssa.Value]bool{p.condOn: p.condWhen}
				}
				call, _ := p.instr.(*ssa.Call)
				// Deferred Puts registered before the call run at every
				// return after it (defer c.release(); handle(c)).
				var deferred []*putSite
				for j := range puts {
					q := &puts[j]
					if q != p && q.deferred && !q.cond && q.field == p.field && precedes(q.instr, p.instr) {
						deferred = append(deferred, q)
					}
				}
				t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
					if _, ok := instr.(*ssa.Return); ok {
						for _, q := range deferred {
							if t.sameObject(path, q.key) {
								double(q, p, "%s may be put into the pool twice: the deferred Put runs after the call at line %d, which already puts it on some paths")
								return stopAll
							}
						}
					}
					// A branch on what the callee returned may tell the
					// paths where it put from the others: stop there. A
					// Put reached before any such branch happens whatever
					// the callee did (err := handler(rw); rw.Close(),
					// xuender/xun#137).
					if ifi, ok := instr.(*ssa.If); ok && call != nil && dependsOn(ifi.Cond, call, 8) {
						return stopPath
					}
					for _, q := range putAt[instr] {
						if q != p && !q.cond && q.field == p.field && c.newTracker(fn, p.key).sameObject(path, q.key) {
							double(q, p, "%s may be put into the pool twice: the call at line %d already puts it on some paths")
							return stopAll
						}
					}
					return next
				})
			}
			continue
		}
		t := c.newTracker(fn, p.key)
		if p.field && !p.deferred {
			c.checkHeldPut(fn, p, putAt, double)
		}
		if !p.deferred {
			returned := false
			// Report the first use only, but go on looking for a second
			// Put; a Close method puts a field, so uses of the receiver
			// are fine, and so are uses after a flag-guarded Put.
			used := p.field || p.reuse
			t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
				for _, q := range putAt[instr] {
					if q.cond && !q.reuse || q.field != p.field {
						continue
					}
					if t.sameObject(path, q.key) {
						if q == p && classGuarded(p) {
							return stopPath
						}
						if q == p {
							double(q, p, "%s is put into the pool again on a later iteration (line %d): a pool must never hold an object twice, or two users get it")
						} else {
							double(q, p, "%s is put into the pool twice (first at line %d): two later Gets can return the same object")
						}
						return stopAll
					}
				}
				if ret, ok := instr.(*ssa.Return); ok && p.field && !returned {
					// After a Close-like call, returning memory read
					// through the receiver returns the pooled field's.
					for _, r := range ret.Results {
						if (sharesBacking(r.Type()) || isString(r.Type())) && t.class(path, r) == isAlias {
							returned = true
							c.report(checkUseAfterPut, c.posOf(instr, p.instr), nil,
								"returned value shares memory with %s, whose pooled buffer went back to the pool at line %d: the caller may see it overwritten; return a copy",
								c.objName(p), c.line(p.instr.Pos()))
							break
						}
					}
				}
				if !used && t.usesObject(instr, path) && !errorReturn(instr, path) && !putsHolder(t, path, putAt[instr]) {
					used = true
					if typ, m := c.putterOfField(instr, p); m != "" && *enabled[checkDoublePut] {
						// return &Iter{framer: f} after Put(f), and
						// Iter.Close puts its framer (gocql/gocql#1112).
						c.report(checkDoublePut, c.usePos(t, path, instr, p.instr), nil,
							"%s, put back into the pool at line %d, is then stored in %s, which %s puts into the pool again: two later Gets can return the same object",
							c.objName(p), c.line(p.instr.Pos()), typ, m)
						return next
					}
					c.report(checkUseAfterPut, c.usePos(t, path, instr, p.instr), nil,
						"%s is used after it was put back into the pool at line %d: another goroutine may already own it",
						c.objName(p), c.line(p.instr.Pos()))
				}
				return next
			})
			continue
		}
		zeroed := zeroesBeforePut(p)
		var assertedAl map[ssa.Value]bool
		if p.asserted {
			assertedAl = c.aliasesOf(fn, objKey{p.arg, false}, true)
		}
		t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
			if ret, ok := instr.(*ssa.Return); ok && !p.field && !p.reuse {
				for _, r := range ret.Results {
					if zeroed && fieldLoad(storedResult(r)) {
						continue // the deferred Put drops what the field held first
					}
					if p.asserted && !assertedAl[storedResult(r)] {
						continue // another dynamic type (case *bytes.Buffer:)
					}
					if t.class(path, storedResult(r)) != notAlias || t.holdsAlias(storedResult(r), instr) {
						c.report(checkUseAfterPut, c.posOf(instr, p.instr), nil,
							"returned value shares memory with %s, which the deferred Put at line %d gives back to the pool: the caller may see it overwritten; return a copy",
							c.objName(p), c.line(p.instr.Pos()))
						return stopPath
					}
				}
			}
			for _, q := range putAt[instr] {
				if q.cond && !q.reuse || q.field != p.field {
					continue
				}
				if q == p {
					double(q, p, "%s is deferred for Put on every iteration (line %d): the pool receives the same object more than once")
					return stopAll
				}
				if !t.sameObject(path, q.key) {
					continue
				}
				// A deferred closure reads its captured variable when it
				// runs: after a store of another object into it on every
				// path, it puts that one (currK := k; defer release(currK);
				// k = acquire(), with defer func() { release(k) }():
				// corazawaf/coraza-spoa eae9a0b's fix).
				if !p.key.cell || c.reachesReturnHolding(fn, q.instr, p.key) {
					double(q, p, "%s is put into the pool here and again by the deferred Put at line %d: two later Gets can return the same object")
					return stopPath // other paths may put it explicitly elsewhere too
				}
			}
			return next
		})
	}
}

// putsHolder reports whether puts, the Puts at one instruction, put only
// other objects than the tracked one: a holder that still points to it
// (res.header = hdr; Put(hdr); Put(res)) does not touch it in the pool, and
// its next user sets the field again (labstack/echo 3cd1d5b). What the
// holder's field is read for is a use of its own, at the load.
func putsHolder(t *tracker, path *path, puts []*putSite) bool {
	for _, q := range puts {
		if t.sameObject(path, q.key) {
			return false
		}
	}
	return len(puts) > 0
}

// checkGuardedAgain reports, after a call p that puts a field of an object
// unless a bool field of it is set, and leaves that field as it was, a
// second such call guarded by the same field: a deferred one registered
// before p (reported at p, whose method should set the field), or one
// later on a path (reported there). Whenever p put, the flag is still
// false, and the second puts again (grafana/loki#15776).
func (c *checker) checkGuardedAgain(fn *ssa.Function, p *putSite, puts []putSite, putAt map[ssa.Instruction][]*putSite) {
	same := func(q *putSite) bool {
		return q != p && q.field && q.guard == p.guard && q.cond && q.param == p.param
	}
	t := c.newTracker(fn, p.key)
	for j := range puts {
		q := &puts[j]
		if same(q) && q.deferred && precedes(q.instr, p.instr) && t.sameObject(&path{}, q.key) {
			c.report(checkDoublePut, p.instr.Pos(), nil,
				"%s's pooled field may be put into the pool twice: this call puts it unless a flag of %s is set, and does not set that flag, so the deferred call at line %d puts it again",
				c.objName(p), c.objName(p), c.line(q.instr.Pos()))
			return
		}
	}
	t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
		for _, q := range putAt[instr] {
			if same(q) && !q.deferred && t.sameObject(path, q.key) {
				c.report(checkDoublePut, q.instr.Pos(), nil,
					"%s's pooled field may be put into the pool twice: the call at line %d puts it unless a flag of %s is set, and does not set that flag, so this call puts it again",
					c.objName(q), c.line(p.instr.Pos()), c.objName(q))
				return stopAll
			}
		}
		return next
	})
}

// checkCachedPut reports a Put of what a getter returned when that getter
// returns, on some path, a field of its receiver instead of a pooled
// object (if b.baseMap != nil { return b.baseMap }): the field keeps the
// object, so the pool gets memory still in use, and the next call returns
// it again to be put again (grafana/loki#11607).
func (c *checker) checkCachedPut(fn *ssa.Function, puts []putSite) {
	for i := range puts {
		p := &puts[i]
		if p.field || p.param < 0 {
			continue // a closure's Put is reported inside the closure
		}
		call, ce := c.cachedSource(fn, p.key)
		if call == nil {
			continue
		}
		name := "the getter"
		if f := call.Call.StaticCallee(); f != nil {
			name = displayName(f)
		}
		c.report(checkDoublePut, c.putPos(p), nil,
			"%s may be the receiver's %s, which %s returns as it is rather than a fresh object from the pool: the field keeps it, and the next call returns it to be put again; put only what came from the pool",
			c.objName(p), ce.sum.cached, name)
	}
}

// cachedSource returns the call of a cached getter (summary.cached) that
// the object of key comes from: the call itself, its first result
// (v, err := e.Eval(bat)), or, for a variable a closure captured, what the
// enclosing function stores into it (defer func() { source.Free() }();
// source, err = e.Eval(bat): matrixorigin/matrixone#15711).
func (c *checker) cachedSource(fn *ssa.Function, key objKey) (*ssa.Call, callee) {
	from := func(v ssa.Value) (*ssa.Call, callee) {
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			v = ex.Tuple
		}
		call, ok := v.(*ssa.Call)
		if !ok || saysFromPool(call) {
			return nil, callee{}
		}
		ce, ok := c.calleeOf(&call.Call)
		if !ok || ce.sum == nil || ce.sum.cached == "" {
			return nil, callee{}
		}
		return call, ce
	}
	if !key.cell {
		return from(key.v)
	}
	cell := key.v
	if fv, ok := cell.(*ssa.FreeVar); ok {
		bs := bindingsOf(fn, fv)
		if len(bs) != 1 {
			return nil, callee{}
		}
		cell = bs[0]
	}
	a, ok := cell.(*ssa.Alloc)
	if !ok {
		return nil, callee{}
	}
	for _, st := range localStores(a) {
		if call, ce := from(st.Val); call != nil {
			return call, ce
		}
	}
	return nil, callee{}
}

// saysFromPool reports whether the caller reads a bool result of call
// (m, pooled := lbs.Map()): the getter says whether the object came from
// the pool, as grafana/loki#11607's fix does.
func saysFromPool(call *ssa.Call) bool {
	tup, ok := call.Type().(*types.Tuple)
	if !ok {
		return false
	}
	refs := call.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if ex, ok := r.(*ssa.Extract); ok && ex.Index < tup.Len() && isBool(tup.At(ex.Index).Type()) {
			if er := ex.Referrers(); er != nil && len(*er) > 0 {
				return true
			}
		}
	}
	return false
}

// checkDeferOrder reports a deferred call that uses the object of a
// deferred Put registered after it: defers run last-in first-out, so it
// runs after the Put (defer func() { w.Write(b.Bytes()) }(); defer
// pool.Put(b)).
func (c *checker) checkDeferOrder(fn *ssa.Function, puts []putSite) {
	isPut := map[ssa.Instruction]bool{}
	for i := range puts {
		isPut[puts[i].instr] = true
	}
	for i := range puts {
		p := &puts[i]
		d, ok := p.instr.(*ssa.Defer)
		if !ok || p.cond || p.field || !trackable(p) {
			continue
		}
		t := c.newTracker(fn, p.key)
		none := &path{clobbered: true}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				e, ok := instr.(*ssa.Defer)
				if !ok || e == d || isPut[e] || c.isSyncCall(&e.Call) || !precedes(e, d) {
					continue
				}
				uses := false
				vals := append([]ssa.Value{e.Call.Value}, e.Call.Args...)
				if mc, ok := e.Call.Value.(*ssa.MakeClosure); ok {
					vals = append(vals, mc.Bindings...)
				}
				for _, v := range vals {
					if v != nil && t.class(none, v) != notAlias {
						uses = true
					}
				}
				if !uses {
					continue
				}
				c.report(checkUseAfterPut, e.Pos(), nil,
					"this deferred call uses %s, but it runs after the deferred Put at line %d (deferred calls run last-in first-out): another goroutine may already own it; defer the Put first",
					c.objName(p), c.line(d.Pos()))
				return
			}
		}
	}
}

// checkHeldPut follows, after a Close-like call p that puts a field of a
// local struct, the object that fn stored into that field when it was
// loaded from a field of something longer-lived (rc :=
// &releaser{buf: r.bodyBuf}; rc.Close()): a later Put of r.bodyBuf, with
// no store into it on the way, puts the same object again
// (go-resty/resty#745, CVE-2023-45286).
func (c *checker) checkHeldPut(fn *ssa.Function, p *putSite, putAt map[ssa.Instruction][]*putSite, double func(q, p *putSite, format string)) {
	alloc, ok := p.key.v.(*ssa.Alloc)
	if !ok || p.key.cell {
		return
	}
	var held ssa.Value
	for _, st := range fieldStores(alloc) {
		if !pointerLike(st.Val.Type()) {
			continue
		}
		u, ok := rootOf(st.Val).v.(*ssa.UnOp)
		if !ok || u.Op != token.MUL {
			continue
		}
		if _, ok := u.X.(*ssa.FieldAddr); !ok {
			continue
		}
		if held != nil && held != u {
			return // two candidates: the fact does not say which field is put
		}
		held = u
	}
	if held == nil {
		return
	}
	t := c.newTracker(fn, objKey{held, false})
	t.walk(p.instr, func(instr ssa.Instruction, path *path) action {
		for _, q := range putAt[instr] {
			if q != p && !q.cond && !q.field && t.sameObject(path, q.key) {
				double(q, p, "%s is put into the pool twice: the call at line %d already put it, through the struct that holds it")
				return stopAll
			}
		}
		return next
	})
}

// zeroesBeforePut reports whether the deferred Put p is a function literal
// that stores the zero value over the whole object before it puts it
// (defer func() { *lp = parser{}; pool.Put(lp) }()): the object then holds
// none of the memory its fields pointed to.
func zeroesBeforePut(p *putSite) bool {
	mc, ok := p.instr.Common().Value.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	var obj *ssa.FreeVar // the object, as the literal sees it
	for i, b := range mc.Bindings {
		if (b == p.arg || b == p.key.v) && i < len(fn.FreeVars) {
			obj = fn.FreeVars[i]
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !isZeroConst(st.Val) {
				continue
			}
			if _, isStruct := st.Val.Type().Underlying().(*types.Struct); isStruct && obj != nil && capturedAddr(st.Addr) == obj && mustPrecedePut(fn, st) {
				return true
			}
		}
	}
	return false
}

// capturedAddr returns the free variable that addr is, or that addr is
// loaded from (captured by reference), or nil.
func capturedAddr(addr ssa.Value) *ssa.FreeVar {
	if ld, ok := addr.(*ssa.UnOp); ok && ld.Op == token.MUL {
		addr = ld.X
	}
	fv, _ := addr.(*ssa.FreeVar)
	return fv
}

// mustPrecedePut reports whether st runs before every Put in fn: it is
// in the entry block, or in a block that dominates each block with a call.
func mustPrecedePut(fn *ssa.Function, st ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Call); ok && !precedes(st, instr) {
				return false
			}
		}
	}
	return true
}

// fieldLoad reports whether v is a load of a field (x.f, not &x.f).
func fieldLoad(v ssa.Value) bool {
	_, ok := loadedField(v)
	return ok
}

// errorReturn reports whether instr returns a non-nil error as its last
// result: the other results, such as a buffer already given back, are
// not for the caller to use (kafka-go's compressRecordBatch).
// storedResult returns, for a result a function with defers loads from
// its result slot (return x stores x in a local, runs the defers, then
// loads it back), the value stored into the slot earlier in the same
// block: the slot holds what every return stores, so its load alone would
// take the error path's nil for the buffer another path returns. Other
// results are returned as they are.
func storedResult(r ssa.Value) ssa.Value {
	load, ok := r.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return r
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok || slot.Heap {
		return r
	}
	var v ssa.Value
	for _, instr := range load.Block().Instrs {
		if instr == load {
			break
		}
		if st, ok := instr.(*ssa.Store); ok && st.Addr == slot {
			v = st.Val
		}
	}
	if v == nil {
		return r
	}
	return v
}

func errorReturn(instr ssa.Instruction, p *path) bool {
	ret, ok := instr.(*ssa.Return)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	last := storedResult(ret.Results[len(ret.Results)-1])
	if !isErrorType(last.Type()) || isNil(last) {
		return false
	}
	if _, ok := last.(*ssa.MakeInterface); ok || newError(last) {
		return true // return nil, fmt.Errorf(...), or a concrete error value
	}
	// An error variable: an error return only where the path knows it is
	// not nil (if err != nil { ...; return buf, err }); return data, err
	// on the success path is not one.
	if refs := last.Referrers(); refs != nil {
		for _, r := range *refs {
			bin, ok := r.(*ssa.BinOp)
			if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) || !isNil(bin.X) && !isNil(bin.Y) {
				continue
			}
			if v, known := p.eval(bin); known {
				return v == (bin.Op == token.NEQ)
			}
		}
	}
	return false
}

// isErrorType reports whether t is the error type.
func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// newError reports whether call makes a new error: errors.New,
// fmt.Errorf, errors.Join.
func newError(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	switch calleeName(&call.Call) {
	case "errors.New", "fmt.Errorf", "errors.Join":
		return true
	}
	return false
}

// onlyNil reports whether the local variable at addr is only ever assigned
// nil: methods called on it run on a nil receiver, which wrappers such as
// zerolog's (*Event).Msg treat as a no-op.
func onlyNil(addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	if !ok {
		return false
	}
	stores := localStores(a)
	for _, st := range stores {
		if !isNil(st.Val) {
			return false
		}
	}
	return len(stores) > 0
}

// resultUsed reports whether the results of a call are used.
func resultUsed(ci ssa.CallInstruction) bool {
	call, ok := ci.(*ssa.Call)
	if !ok {
		return false
	}
	refs := call.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if _, dbg := r.(*ssa.DebugRef); !dbg {
			return true
		}
	}
	return false
}

// dependsOn reports whether v is computed from the results of call within
// fn: through extracts, comparisons, conversions, phis and calls given
// them (errors.Is(err, io.EOF)), at most depth steps back.
func dependsOn(v ssa.Value, call *ssa.Call, depth int) bool {
	if v == ssa.Value(call) {
		return true
	}
	if depth == 0 {
		return false
	}
	switch v.(type) {
	case *ssa.Extract, *ssa.BinOp, *ssa.UnOp, *ssa.ChangeType, *ssa.Convert, *ssa.MakeInterface,
		*ssa.ChangeInterface, *ssa.TypeAssert, *ssa.Field, *ssa.Phi, *ssa.Call:
		for _, op := range v.(ssa.Instruction).Operands(nil) {
			if *op != nil && *op != v && dependsOn(*op, call, depth-1) {
				return true
			}
		}
	}
	return false
}

// isConst reports whether v is a constant.
func isConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return ok
}

// trackable reports whether the object of a put site has an identity worth
// following: not a constant, not an interface value of unknown content, and
// holding memory that a later user would share.
func trackable(p *putSite) bool {
	if isConst(p.key.v) {
		return false
	}
	t := p.key.v.Type()
	if p.key.cell {
		ptr, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return false
		}
		t = ptr.Elem()
	}
	return (!types.IsInterface(t) || p.asserted) && hasPointers(t)
}

// reachesReturn reports whether the function can return after q without
// storing another value into the variable q puts.
func (c *checker) reachesReturn(fn *ssa.Function, q *putSite) bool {
	return c.reachesReturnHolding(fn, q.instr, q.key)
}

// reachesReturnHolding reports whether fn can return after from without
// storing another value into the variable of key (for a cell key; any
// path to a return otherwise).
func (c *checker) reachesReturnHolding(fn *ssa.Function, from ssa.Instruction, key objKey) bool {
	found := false
	c.newTracker(fn, key).walk(from, func(instr ssa.Instruction, _ *path) action {
		if _, ok := instr.(*ssa.Return); ok {
			found = true
			return stopAll
		}
		return next
	})
	return found
}

// checkNoReset reports objects with a Reset method taken from a pool without
// a Reset hook and put back in the same function without being reset.
func (c *checker) checkNoReset(fn *ssa.Function, puts []putSite, gets []getSite) {
	for _, g := range gets {
		if g.resets {
			continue
		}
		objT := g.call.Type()
		if g.prim != nil && g.prim.kind == kindSync {
			objT = assertedType(g.call)
		}
		if objT == nil || types.IsInterface(objT) {
			continue
		}
		decoded := false
		if !hasResetMethod(objT) {
			// Decoding into a pooled struct merges: fields absent from the
			// input keep the previous user's values (prebid-cache#64).
			_, isStruct := derefStruct(objT)
			_, isMap := objT.Underlying().(*types.Map)
			decode := c.decodedInto(fn, g.call)
			if !isStruct && !isMap || decode == nil || isStruct && c.writesField(fn, g.call, decode) {
				continue
			}
			decoded = true
		}
		if c.resetsObj(fn, objKey{g.call, false}) {
			if isStringsBuilder(objT) {
				c.checkBuilderKept(fn, puts, g)
			}
			continue
		}
		for i := range puts {
			p := &puts[i]
			if p.resets || p.field || p.prim != nil && (p.prim.kind == kindByte || c.poolResets(p.prim, p.args)) {
				continue
			}
			if p.key.cell {
				if !storesFrom(fn, p.key.v, g.call, c) {
					continue
				}
			} else if !c.flowsFrom(p.key.v, g.call) {
				continue
			}
			if c.resetsObj(fn, p.key) {
				continue
			}
			// Every such Put is reported: an error path and the normal
			// path each put the object back dirty (pquerna/ffjson#195).
			if decoded {
				c.report(checkNoReset, c.putPos(p), nil,
					"%s (%s) was decoded into without being cleared and goes back to the pool: the next user's decode keeps the fields (or keys) its input lacks from this one",
					c.objName(p), types.TypeString(objT, types.RelativeTo(c.pass.Pkg)))
				continue
			}
			c.report(checkNoReset, c.putPos(p), nil,
				"%s (%s) goes back to the pool without Reset and the pool has no Reset hook: the next user sees this one's data",
				c.objName(p), types.TypeString(objT, types.RelativeTo(c.pass.Pkg)))
		}
	}
}

// putterOfField returns, when instr stores into a field of a struct of
// the package the object put by p, or stores into another field of a
// struct it stores the object into (&Iter{err: x, framer: f}), and the
// struct's type has a method that puts what that field holds (Close,
// Release), the type and field (Iter.framer) and the method's names.
func (c *checker) putterOfField(instr ssa.Instruction, p *putSite) (typ, method string) {
	st, ok := instr.(*ssa.Store)
	if !ok {
		return "", ""
	}
	fa, ok := st.Addr.(*ssa.FieldAddr)
	if !ok {
		return "", ""
	}
	n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
	if !ok || n.Obj().Pkg() != c.pass.Pkg {
		return "", ""
	}
	field := -1
	for _, s := range fieldStores(fa.X) {
		if other, ok := s.Addr.(*ssa.FieldAddr); ok && (s.Val == p.arg || s.Val == p.key.v) {
			field = other.Field
		}
	}
	if field < 0 {
		return "", ""
	}
	path := strconv.Itoa(field)
	for _, fn := range c.funcs {
		recv := fn.Signature.Recv()
		if recv == nil || len(fn.Params) == 0 {
			continue
		}
		rn, ok := types.Unalias(derefType(recv.Type())).(*types.Named)
		if !ok || rn.Origin().Obj() != n.Origin().Obj() {
			continue
		}
		if s := c.sums[fn]; s != nil {
			if _, puts := s.fieldPuts[0][path]; puts {
				name := n.Obj().Name()
				if st, ok := n.Underlying().(*types.Struct); ok && field < st.NumFields() {
					name += "." + st.Field(field).Name()
				}
				return name, displayName(fn)
			}
		}
	}
	return "", ""
}

// putPos returns where to report a Put: at p, or, for a call of a
// closure that puts a captured variable (defer func() { ...
// pool.Put(buf) }()), at that Put inside the closure, where the user reads
// it (rs/zerolog#119).
func (c *checker) putPos(p *putSite) token.Pos {
	mc, ok := p.instr.Common().Value.(*ssa.MakeClosure)
	if !ok {
		return p.instr.Pos()
	}
	clo, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return p.instr.Pos()
	}
	inner, _ := c.sites(clo)
	for i := range inner {
		q := &inner[i]
		fv, ok := q.key.v.(*ssa.FreeVar)
		if !ok || q.prim == nil || q.prim.role != rolePut {
			continue
		}
		for j, f := range clo.FreeVars {
			if f == fv && j < len(mc.Bindings) && mc.Bindings[j] == p.arg {
				return q.instr.Pos()
			}
		}
	}
	return p.instr.Pos()
}

// decodedInto returns the call by which fn passes the object got by get to
// a function or method named Unmarshal or Decode (encoding/json, xml, gob,
// and look-alikes), which fill a struct without clearing it first, or nil.
func (c *checker) decodedInto(fn *ssa.Function, get ssa.Value) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			var name string
			args := com.Args
			if com.IsInvoke() {
				name = com.Method.Name()
			} else if callee := com.StaticCallee(); callee != nil {
				name = callee.Name()
				if callee.Signature.Recv() != nil && len(args) > 0 {
					args = args[1:]
				}
			}
			// The object must be the target: Unmarshal(data, v) takes it
			// last, Decode(v) alone; not a decoding context passed along.
			if len(args) == 0 || name != "Unmarshal" && (name != "Decode" || len(args) != 1) {
				continue
			}
			target := args[len(args)-1]
			if mi, ok := target.(*ssa.MakeInterface); ok {
				target = mi.X
			}
			if c.flowsFrom(target, get) && !c.decodeClears(target.Type()) {
				return ci
			}
			// json.Unmarshal(b, &m) of a pooled map m: decoding adds keys.
			if a, ok := target.(*ssa.Alloc); ok && storesFrom(fn, a, get, c) {
				if _, isMap := derefType(a.Type()).Underlying().(*types.Map); isMap {
					return ci
				}
			}
		}
	}
	return nil
}

// writesField reports whether fn stores into a field of the object got by
// get: put.Puts = put.Puts[:0] before a decode clears what it must. With a
// decode (not nil), only stores that come before it prepare it; the ones
// after it clear the object for its Put, and unless they cover every field
// the fields they leave keep the last decode's values (RoseWrightdev/oryx
// 1b45ca8: gob skips zero fields, so a pooled entry kept a true Tombstone).
func (c *checker) writesField(fn *ssa.Function, get ssa.Value, decode ssa.Instruction) bool {
	al := c.aliasesOf(fn, objKey{get, false}, true)
	after := map[int]bool{}
	nfields := 0
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && al[fa.X] {
					if decode == nil || precedes(st, decode) {
						return true
					}
					after[fa.Field] = true
					if s, ok := derefStruct(fa.X.Type()); ok {
						nfields = s.NumFields()
					}
				}
			}
		}
	}
	return nfields > 0 && len(after) == nfields
}

// storesFrom reports whether fn stores a value that flows from src into the
// variable at addr.
func storesFrom(fn *ssa.Function, addr, src ssa.Value, c *checker) bool {
	// A global or a free variable has no referrers in fn: look at fn's
	// stores instead.
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && st.Addr == addr && c.flowsFrom(st.Val, src) {
				return true
			}
		}
	}
	return false
}

// checkNonPointer reports values that are not pointer-shaped converted to an
// interface to be put into a pool.
func (c *checker) checkNonPointer(p putSite) {
	mi, ok := p.arg.(*ssa.MakeInterface)
	if !ok {
		c.checkGenericBoxing(p)
		return
	}
	if p.prim != nil && p.prim != syncPut {
		return
	}
	if _, isConst := mi.X.(*ssa.Const); isConst {
		return
	}
	t := mi.X.Type()
	if containsTypeParam(t) || pointerShaped(t) || smallValue(t) {
		return
	}
	where := "sync.Pool"
	if p.prim == nil {
		where = "a pool through a wrapper that takes any"
	}
	c.report(checkNonPointer, p.instr.Pos(), nil,
		"non-pointer value of type %s put into %s: converting it to an interface allocates on every Put; pool a pointer instead",
		types.TypeString(t, types.RelativeTo(c.pass.Pkg)), where)
}

// growable reports whether t is a buffer that grows with use.
func growable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Map:
		return true // a map keeps its buckets after clear (golang/go#20135)
	case *types.Pointer:
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil {
			switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
			case "bytes.Buffer", "strings.Builder":
				return true
			}
		}
		_, ok := u.Elem().Underlying().(*types.Slice)
		return ok
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return true
		}
		return sliceOfSlices(u)
	}
	return false
}

// sliceOfSlices reports whether t is a slice whose elements are slices
// ([][]byte: segments, chunks).
func sliceOfSlices(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	_, ok = s.Elem().Underlying().(*types.Slice)
	return ok
}

// isBuilder reports whether t is *bytes.Buffer or *strings.Builder, which
// grow with every write.
func isBuilder(t types.Type) bool {
	ptr, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	_, isSlice := ptr.Elem().Underlying().(*types.Slice)
	return !isSlice
}

// grows reports whether fn (or, for a captured variable, the function that
// captured it) appends to the object of key or to a slice it holds.
func (c *checker) grows(fn *ssa.Function, key objKey) bool {
	return c.growsIn(fn, key, 2, false)
}

// grownByCallers reports whether p puts a parameter of a put helper
// (releaseFileHeaderMap(m)) that a caller grows before the call:
// the helper's Put is where the size goes unchecked (gofiber/fiber#4420).
func (c *checker) grownByCallers(fn *ssa.Function, p *putSite) bool {
	prm, ok := p.key.v.(*ssa.Parameter)
	if !ok || p.key.cell {
		return false
	}
	idx := paramIndex(fn, prm)
	if idx < 0 {
		return false
	}
	for _, cs := range c.callSitesOf(fn) {
		com := cs.Common()
		if com.IsInvoke() || idx >= len(com.Args) || cs.Parent() == fn {
			continue
		}
		if c.grows(cs.Parent(), rootOf(com.Args[idx])) {
			return true
		}
	}
	return false
}

// growsIn is grows, following the object into the functions of the
// package it is passed to (appendAll(bp, parts)), depth calls deep; looped
// says that fn is called in a loop, so one insertion per call fills a map
// with as many entries as the loop runs.
func (c *checker) growsIn(fn *ssa.Function, key objKey, depth int, looped bool) bool {
	al := c.aliasesOf(fn, key, true)
	// Put(b[:0]): the slice that grew is b.
	for v := key.v; !key.cell; {
		s, ok := v.(*ssa.Slice)
		if !ok {
			break
		}
		v = s.X
		for a := range c.aliasesOf(fn, objKey{v, false}, true) {
			al[a] = true
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if mu, ok := instr.(*ssa.MapUpdate); ok && al[mu.Map] && (looped || inLoop(b)) {
				return true // a map filled in a loop: as many entries as the input has
			}
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if isBuiltin(&call.Call, "append") && len(call.Call.Args) > 0 &&
				al[call.Call.Args[0]] && !fixedAppend(call) {
				return true
			}
			// binary.BigEndian.AppendUint64(b, v) for each of the input's
			// values (prometheus/prometheus#19397's encoder).
			if s := appendedSlice(call); s != nil && al[s] && inLoop(b) {
				return true
			}
			callee := call.Call.StaticCallee()
			if callee != nil && callee.Origin() != nil {
				callee = callee.Origin() // an instance of a generic function of the package
			}
			if depth == 0 || callee == nil || callee == fn || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || len(callee.Blocks) == 0 {
				continue
			}
			for i, a := range call.Call.Args {
				// Only the object itself or its buffers: not a struct that
				// holds an alias of them (req.Unmarshal(buf) keeps buf in
				// req, and req's own slices grow).
				if al[a] && i < len(callee.Params) && pointerLike(a.Type()) && (growable(a.Type()) || types.Identical(a.Type(), key.v.Type())) &&
					c.growsIn(callee, objKey{callee.Params[i], false}, depth-1, looped || inLoop(b)) {
					return true
				}
			}
		}
	}
	if fv, ok := key.v.(*ssa.FreeVar); ok {
		for _, b := range bindingsOf(fn, fv) {
			if c.grows(fn.Parent(), objKey{b, key.cell}) {
				return true
			}
		}
	}
	return false
}

// poolID names a pool across the functions of a package: a package-level
// variable, or a field of a struct type (p.pool in a wrapper's methods).
func poolID(v ssa.Value) any {
	switch x := v.(type) {
	case *ssa.Global:
		return x
	case *ssa.UnOp:
		// var p = &sync.Pool{...}: *p is the pool; p names it.
		if g := globalOf(x); g != nil && g != v {
			return g
		}
		// cfg.pool of type *sync.Pool: the field names it.
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL && isPoolType(x.Type()) {
			return poolID(fa)
		}
		// pool, a local *sync.Pool captured by a closure: the variable's
		// cell, loaded; the pool is what the enclosing function stored
		// there once.
		if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL && isPoolType(x.Type()) {
			if cell, ok := soleBinding(fv).(*ssa.Alloc); ok {
				if v := onlyStored(cell); v != nil {
					return poolID(v)
				}
			}
		}
	case *ssa.FieldAddr:
		if n, ok := types.Unalias(derefType(x.X.Type())).(*types.Named); ok {
			return [2]any{n.Origin().Obj(), x.Field}
		}
	case *ssa.Alloc:
		// pool := &sync.Pool{...} or var pool sync.Pool in a function:
		// the local pool itself.
		if isPoolType(x.Type()) {
			return x
		}
	case *ssa.FreeVar:
		// The same pool captured by a closure (an HTTP middleware that
		// makes its pool and returns a handler using it).
		if b := soleBinding(x); b != nil {
			return poolID(b)
		}
	case *ssa.IndexAddr:
		// pools[bits(n)] of var pools [N]sync.Pool: a table of size
		// classes whose pools all hold one type (gonum/matrix#226).
		if g, ok := x.X.(*ssa.Global); ok {
			if a, ok := derefType(g.Type()).Underlying().(*types.Array); ok && isPoolType(types.NewPointer(a.Elem())) {
				return poolArray{g}
			}
		}
	}
	return nil
}

// soleBinding returns what the one closure made of fv's function binds to
// fv, or nil when there is no such closure or more than one.
func soleBinding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	if fn == nil {
		return nil
	}
	if bs := bindingsOf(fn, fv); len(bs) == 1 {
		return bs[0]
	}
	return nil
}

// poolArray names the pools of a package-level array of pools (one per
// size class, say) as one pool.
type poolArray struct{ g *ssa.Global }

// sizedOnGet reports whether some function of the package takes a buffer
// from the pool at addr and gives it a size that the caller chooses
// (*bp = make([]byte, size)): what goes back into that pool is then as
// large as the largest request (buildbuddy-io/buildbuddy#12676).
func (c *checker) sizedOnGet(addr ssa.Value) bool {
	// pool := mp.small; if size >= mp.bigSize { pool = mp.big }: either
	// pool, chosen by a lower bound only.
	if phi, ok := addr.(*ssa.Phi); ok {
		for _, e := range phi.Edges {
			if _, nested := e.(*ssa.Phi); !nested && c.sizedOnGet(e) {
				return true
			}
		}
		return false
	}
	id := poolID(addr)
	if _, table := id.(poolArray); id == nil || table {
		// A table's index is the size class: each of its pools gets
		// buffers of one class (x/net/http2's bufPools).
		return false
	}
	if c.sized == nil {
		c.sized = map[any]bool{}
		// A New hook set to a closure that makes slices of a captured
		// size: each caller re-points it at the size it wants
		// (gostor/gotgt#85).
		for g, hooks := range c.hooks {
			for _, v := range hooks["New"] {
				if makesCapturedSize(v) {
					c.sized[g] = true
				}
			}
		}
		for _, fn := range c.funcs {
			_, gets := c.sites(fn)
			for _, g := range gets {
				var gid any
				switch {
				case g.prim != nil && g.prim.kind == kindSync && len(g.args) > 0:
					gid = poolID(g.args[0])
				case g.prim == nil:
					gid = c.getPoolID(g) // a getter of the package
				}
				if gid == nil || c.sized[gid] {
					continue
				}
				key := objKey{g.call, false}
				// Growth by append is reported where the append's buffer
				// is put; a size chosen at Get is seen only by the Put.
				// So is a getter that makes the caller's size when the
				// pool is empty (prometheus/prometheus#7555).
				al := c.aliasesOf(fn, key, true)
				if storesVarMake(fn, al, false) || returnsMake(fn, notConst) {
					c.sized[gid] = true
				}
				// Grown by appending the missing length and handed out, to
				// come back through another function's Put.
				if storesVarMake(fn, al, true) && !c.putsHere(fn, key) {
					c.sized[gid] = true
				}
				// Grown in a loop here and put elsewhere (decompress
				// appends the whole payload, a Release method puts it
				// back): the Put cannot see the growth
				// (Basekick-Labs/arc#817). One append of the caller's
				// data is left out: its size is usually checked against
				// a limit (klauspost/compress s2's skippable blocks).
				if (c.appendsInLoop(fn, key) || c.growsThroughCall(fn, key)) && !c.putsHere(fn, key) {
					c.sized[gid] = true
				}
			}
		}
	}
	return c.sized[id]
}

// appendsInLoop reports whether fn appends a variable amount to the object
// of key inside a loop.
func (c *checker) appendsInLoop(fn *ssa.Function, key objKey) bool {
	al := c.aliasesOf(fn, key, true)
	for _, b := range fn.Blocks {
		if !inLoop(b) {
			continue
		}
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 {
				continue
			}
			if isBuiltin(&call.Call, "append") && al[call.Call.Args[0]] && !fixedAppend(call) {
				return true
			}
			// binary.BigEndian.AppendUint64(b, v) in a loop
			if s := appendedSlice(call); s != nil && al[s] {
				return true
			}
		}
	}
	return false
}

// growsThroughCall reports whether fn stores into the object of key (a
// *[]byte) what a function of the package returns after appending to it in
// a loop (*bp = enc.Samples(samples, *bp), prometheus/prometheus#19397).
func (c *checker) growsThroughCall(fn *ssa.Function, key objKey) bool {
	al := c.aliasesOf(fn, key, true)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !al[st.Addr] {
				continue
			}
			call, ok := st.Val.(*ssa.Call)
			if !ok {
				continue
			}
			callee := call.Call.StaticCallee()
			if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg || len(callee.Blocks) == 0 || len(callee.Params) != len(call.Call.Args) {
				continue
			}
			for i, a := range call.Call.Args {
				ld, ok := a.(*ssa.UnOp)
				if ok && ld.Op == token.MUL && al[ld.X] && isByteSlice(a.Type()) && c.appendsInLoop(callee, objKey{callee.Params[i], false}) {
					return true
				}
			}
		}
	}
	return false
}

// sizedFrom reports whether the size v is computed, depth operations
// deep, from cap or len of another load of the field at fa (2*cap(a.buf)+n).
func sizedFrom(v ssa.Value, fa *ssa.FieldAddr, depth int) bool {
	if depth < 0 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return sizedFrom(x.X, fa, depth-1)
	case *ssa.BinOp:
		return sizedFrom(x.X, fa, depth-1) || sizedFrom(x.Y, fa, depth-1)
	case *ssa.Call:
		if bi, ok := x.Call.Value.(*ssa.Builtin); ok && (bi.Name() == "cap" || bi.Name() == "len") && len(x.Call.Args) == 1 {
			ld, ok := x.Call.Args[0].(*ssa.UnOp)
			return ok && ld.Op == token.MUL && sameAddr(ld.X, fa, 0)
		}
	}
	return false
}

// derefLoc reports whether x loads what another load of the same location
// as v points to: cap(*p.bp) for a Put of p.bp.
func derefLoc(x, v ssa.Value) bool {
	u, ok := x.(*ssa.UnOp)
	return ok && u.Op == token.MUL && sameLoc(u.X, v)
}

// putsHere reports whether fn puts the object got by the call of key, or a
// value of it, itself, into the pool: a Put that sees the growth. A put
// helper called here (defer h.putBuf(bp)) does not.
func (c *checker) putsHere(fn *ssa.Function, key objKey) bool {
	puts, _ := c.sites(fn)
	al := c.aliasesOf(fn, key, true)
	for i := range puts {
		if puts[i].prim == nil {
			continue
		}
		if al[puts[i].key.v] || al[puts[i].arg] || c.flowsFrom(puts[i].key.v, key.v) {
			return true
		}
	}
	return false
}

// makesCapturedSize reports whether v is a closure that returns a slice
// made with a length or capacity taken from a captured variable.
func makesCapturedSize(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeClosure)
	if !ok {
		return false
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	return returnsMake(fn, func(x ssa.Value) bool {
		for {
			switch y := x.(type) {
			case *ssa.FreeVar:
				return true
			case *ssa.UnOp:
				x = y.X
			case *ssa.Convert:
				x = y.X
			default:
				return false
			}
		}
	})
}

// returnsMake reports whether fn returns a slice made with a length or
// capacity for which sized holds.
func returnsMake(fn *ssa.Function, sized func(ssa.Value) bool) bool {
	for _, b := range fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok {
			for _, r := range ret.Results {
				if mi, ok := r.(*ssa.MakeInterface); ok {
					r = mi.X
				}
				if a, ok := r.(*ssa.Alloc); ok {
					r = onlyStored(a) // &s for s := make([]T, 0, n)
				}
				if sl, ok := r.(*ssa.Slice); ok {
					r = sl.X
				}
				if ms, ok := r.(*ssa.MakeSlice); ok && (sized(ms.Len) || sized(ms.Cap)) {
					return true
				}
			}
		}
	}
	return false
}

// notConst reports whether v is not a constant.
func notConst(v ssa.Value) bool {
	_, ok := v.(*ssa.Const)
	return !ok
}

// storesVarMake reports whether fn stores into one of the aliases al a
// slice made with a length or capacity that is not a constant (appended:
// or such a slice appended to what they hold).
func storesVarMake(fn *ssa.Function, al map[ssa.Value]bool, appended bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !al[st.Addr] {
				continue
			}
			if _, ok := st.Addr.(*ssa.FieldAddr); ok {
				// Another field of a struct that holds the buffer
				// (r.accumulated next to r.pooled): the buffer keeps its
				// size (darksworm/argonaut#250's fix).
				continue
			}
			v := st.Val
			if sl, ok := v.(*ssa.Slice); ok {
				v = sl.X
			}
			// *pbuf = append((*pbuf)[:cap(*pbuf)], make([]byte, need)...):
			// grown to the size the caller asked for (lesismal/nbio
			// 28c80af's Malloc).
			if call, ok := v.(*ssa.Call); ok && appended && len(call.Call.Args) == 2 {
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" {
					v = call.Call.Args[1]
					if sl, ok := v.(*ssa.Slice); ok {
						v = sl.X
					}
				}
			}
			if mk, ok := v.(*ssa.MakeSlice); ok {
				_, lc := mk.Len.(*ssa.Const)
				_, cc := mk.Cap.(*ssa.Const)
				if !lc || !cc {
					return true
				}
			}
		}
	}
	return false
}

// growsReceiver reports whether fn is a method on a pointer to a []byte
// type that appends to its receiver: *b = append(*b, ...).
func growsReceiver(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return false
	}
	ptr, ok := fn.Params[0].Type().Underlying().(*types.Pointer)
	if !ok || !isByteSlice(ptr.Elem()) {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || st.Addr != fn.Params[0] {
				continue
			}
			if call, ok := st.Val.(*ssa.Call); ok {
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && !fixedAppend(call) || !ok && len(call.Call.Args) > 0 && appendLike(call) {
					return true
				}
			}
		}
	}
	return false
}

// appendLike reports whether call is an append-style function call: its
// first argument and result are []byte, and the callee is named Append...
// (strconv.AppendInt, utf8.AppendRune, fmt.Appendf...) or is a function of
// the package that returns its first parameter grown by append.
func appendLike(call *ssa.Call) bool {
	com := &call.Call
	if com.IsInvoke() || !isByteSlice(call.Type()) || !isByteSlice(com.Args[0].Type()) {
		return false
	}
	callee := com.StaticCallee()
	if callee == nil || callee.Signature.Recv() != nil {
		return false
	}
	return appendNamed(callee) || appendsFirst(callee)
}

// dstIdiom reports whether v is the []byte result of a call of a function
// value (not a static function or an interface method) given the field
// at fa truncated (f(x.b[:0]), the result stored back into x.b).
func dstIdiom(v ssa.Value, fa *ssa.FieldAddr) bool {
	if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
		v = ex.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok || call.Call.IsInvoke() || call.Call.StaticCallee() != nil || len(call.Call.Args) == 0 {
		return false
	}
	if _, builtin := call.Call.Value.(*ssa.Builtin); builtin {
		return false
	}
	sl, ok := call.Call.Args[0].(*ssa.Slice)
	if !ok || sl.High == nil || !isZeroConst(sl.High) {
		return false
	}
	src, ok := loadedField(sl.X)
	return ok && src.Field == fa.Field && sameLoc(src.X, fa.X)
}

// appendNamed reports whether fn is named Append...: strconv.AppendInt,
// binary.BigEndian.AppendUint32.
func appendNamed(fn *ssa.Function) bool { return strings.HasPrefix(fn.Name(), "Append") }

// appendedSlice returns the []byte argument that an append-style call
// extends and returns (see appendLike; a method named Append... given it
// after its receiver, binary.BigEndian.AppendUint32(b, n)), or nil.
func appendedSlice(call *ssa.Call) ssa.Value {
	com := &call.Call
	if com.IsInvoke() || len(com.Args) == 0 || !isByteSlice(call.Type()) {
		return nil
	}
	if appendLike(call) {
		return com.Args[0]
	}
	if callee := com.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && appendNamed(callee) &&
		len(com.Args) > 1 && isByteSlice(com.Args[1].Type()) {
		return com.Args[1]
	}
	return nil
}

// appendsFirst reports whether fn returns its first parameter grown by
// append.
func appendsFirst(callee *ssa.Function) bool {
	if len(callee.Params) == 0 || len(callee.Blocks) == 0 {
		return false
	}
	for _, b := range callee.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if r, ok := ret.Results[0].(*ssa.Call); ok {
			if isBuiltin(&r.Call, "append") && len(r.Call.Args) > 0 && stripSlice(r.Call.Args[0]) == callee.Params[0] {
				return true // append(b, ...), or append(b[:cap(b)], ...)
			}
		}
	}
	return false
}

// stripSlice returns x for a re-slice x[i:j], repeatedly.
func stripSlice(v ssa.Value) ssa.Value {
	for {
		sl, ok := v.(*ssa.Slice)
		if !ok {
			return v
		}
		v = sl.X
	}
}

// grownInLoopFrom reports whether v, stored back into the field at fa, is
// (through re-slices and phis) a load of that field grown in a loop by an
// append or a helper that appends to its argument (appendLike).
func grownInLoopFrom(v ssa.Value, fa *ssa.FieldAddr) bool {
	grown, fromField := false, false
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, d int) bool
	walk = func(v ssa.Value, d int) bool {
		v = stripSlice(v)
		if seen[v] || d > 8 {
			return true
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if !walk(e, d+1) {
					return false
				}
			}
			return true
		case *ssa.Call:
			if len(x.Call.Args) == 0 || !(isBuiltin(&x.Call, "append") || appendLike(x)) {
				return false
			}
			grown = grown || inLoop(x.Block())
			return walk(x.Call.Args[0], d+1)
		case *ssa.UnOp:
			if x.Op == token.MUL && sameAddr(x.X, fa, 0) {
				fromField = true
				return true
			}
		}
		return false
	}
	return walk(v, 0) && grown && fromField
}

// fixedAppend reports whether an append adds a bounded number of elements
// once: append(s, a, b) outside a loop, or append(s, xs...) outside a loop
// when the elements are not bytes; not append(buf, data...).
func fixedAppend(call *ssa.Call) bool {
	if inLoop(call.Block()) {
		return false
	}
	if len(call.Call.Args) < 2 {
		return true
	}
	if !isByteSlice(call.Type()) {
		// Outside a loop, append(s, xs...) of elements that are not bytes
		// copies a set of known size, such as configured attributes
		// (OpenTelemetry's pooled *[]attribute.KeyValue); only bytes come
		// in unbounded amounts from input.
		return true
	}
	switch x := call.Call.Args[1].(type) {
	case *ssa.Const:
		return true // a string constant or nil
	case *ssa.Slice:
		// append(s, a, b) passes a slice of a local array.
		if a, ok := x.X.(*ssa.Alloc); ok {
			if p, ok := a.Type().Underlying().(*types.Pointer); ok {
				_, isArr := p.Elem().Underlying().(*types.Array)
				return isArr
			}
		}
	}
	return false
}

// mayPrecede reports whether b can run after a in one call of their
// function.
func mayPrecede(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		for _, instr := range a.Block().Instrs {
			if instr == a {
				return true
			}
			if instr == b {
				break
			}
		}
	}
	return reachesFrom(a.Block().Succs, b.Block())
}

// inLoop reports whether b lies on a cycle of its function's CFG.
func inLoop(b *ssa.BasicBlock) bool { return reachesFrom(b.Succs, b) }

// reachesFrom reports whether to can be reached from one of the blocks
// from.
func reachesFrom(from []*ssa.BasicBlock, to *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), from...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == to {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

// bindingsOf returns the values that the function enclosing the literal fn
// binds to its free variable fv.
func bindingsOf(fn *ssa.Function, fv *ssa.FreeVar) []ssa.Value {
	if fn.Parent() == nil {
		return nil
	}
	idx := -1
	for i, q := range fn.FreeVars {
		if q == fv {
			idx = i
		}
	}
	var out []ssa.Value
	for _, mc := range closureSites(fn) {
		if idx >= 0 && idx < len(mc.Bindings) {
			out = append(out, mc.Bindings[idx])
		}
	}
	return out
}

// closureSites returns the instructions of fn's enclosing function that
// make a closure of fn (none for a function that is not a literal).
func closureSites(fn *ssa.Function) []*ssa.MakeClosure {
	if fn.Parent() == nil {
		return nil
	}
	var out []*ssa.MakeClosure
	for _, b := range fn.Parent().Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn {
				out = append(out, mc)
			}
		}
	}
	return out
}

// maxPooled is the capacity bound written by the suggested fix; it is the
// one fmt uses for its printer buffers.
const maxPooled = "64<<10"

// checkUnbounded reports growable buffers put into an unbounded pool with no
// capacity check on the way.
func (c *checker) checkUnbounded(fn *ssa.Function, p putSite) {
	if p.prim == nil {
		c.checkUnboundedWrapper(fn, p)
		return
	}
	if p.prim != syncPut && p.prim != typedPut {
		return
	}
	if p.prim == typedPut {
		g := globalOf(p.args[0])
		if g == nil || len(c.hooks[g]["Keep"]) > 0 {
			return
		}
	}
	arg := p.arg
	if mi, ok := arg.(*ssa.MakeInterface); ok {
		arg = mi.X
	}
	t := arg.Type()
	if isNil(arg) {
		return
	}
	_, slice := t.Underlying().(*types.Slice)
	if !growable(t) && !(slice && c.sizedOnGet(p.args[0])) {
		// Slices of other elements count when the pool's users size
		// them (a getter that makes the caller's size on a miss).
		if field, method, ok := c.growingField(t); ok && !c.putGuarded(fn, &p) && !c.dropsField(fn, &p, t, field) {
			c.report(checkUnbounded, p.instr.Pos(), nil,
				"%s (%s) is put into the pool without a capacity check, and its field %s grows without bound (%s): one huge buffer stays pinned in the pool (golang/go#23199); drop objects whose %s is above a bound",
				c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), field, method, field)
		} else if field, grown, other, ok := c.grownUnlikeOthers(fn, &p, t); ok {
			c.report(checkUnbounded, p.instr.Pos(), nil,
				"%s (%s) is put into the pool without a capacity check after its field %s grew here (line %d), while the package checks the size before another Put of this type (line %d): one huge buffer stays pinned in the pool (golang/go#23199); check it here too",
				c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), field, c.line(grown), c.line(other))
		}
		return
	}
	if c.putGuarded(fn, &p) || c.builderDropped(fn, &p) {
		return
	}
	if !isBuilder(t) && !c.grows(fn, p.key) && !c.sizedOnGet(p.args[0]) && !c.grownByCallers(fn, &p) {
		return // a slice is only a problem if it grows; fixed-size buffers are fine
	}
	if _, isMap := t.Underlying().(*types.Map); isMap {
		c.report(checkUnbounded, p.instr.Pos(), nil,
			"%s (%s) is put into the pool without a size check: a map keeps its buckets after clear, so one that once held many entries stays that large in the pool (golang/go#20135); drop maps with more than a bound of entries (len before clear)",
			c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)))
		return
	}
	var fixes []analysis.SuggestedFix
	if fix, ok := c.guardFix(p, t); ok {
		fixes = append(fixes, fix)
	}
	c.report(checkUnbounded, p.instr.Pos(), fixes,
		"%s (%s) is put into the pool without a capacity check: one huge buffer stays pinned in the pool (golang/go#23199); drop buffers above a bound",
		c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)))
}

// grownUnlikeOthers reports, for an unguarded Put p of a pointer to a
// struct type of the package, a []byte field that fn grows on the object
// before the Put (o.buf = append(b, input...)) while another Put of that
// type in the package is guarded by a size check: the package bounds this
// type where it thinks of it, and this Put forgot (phuslu/log cdc269d's
// syslog writer). It returns the field, where it grew and the other Put.
func (c *checker) grownUnlikeOthers(fn *ssa.Function, p *putSite, t types.Type) (string, token.Pos, token.Pos, bool) {
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	st, ok2 := derefStruct(t)
	if !ok || !ok2 || !isPointer(t) || n.Obj().Pkg() != c.pass.Pkg || p.key.cell {
		return "", token.NoPos, token.NoPos, false
	}
	al := c.aliasesOf(fn, p.key, true)
	_, deferred := p.instr.(*ssa.Defer)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			store, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := store.Addr.(*ssa.FieldAddr)
			call, ok2 := store.Val.(*ssa.Call)
			if !ok || !ok2 || !al[fa.X] || fa.Field >= st.NumFields() || !isByteSlice(call.Type()) {
				continue
			}
			bi, isBuiltin := call.Call.Value.(*ssa.Builtin)
			grows := isBuiltin && bi.Name() == "append" && len(call.Call.Args) >= 2 && !fixedAppend(call) || !isBuiltin && len(call.Call.Args) > 0 && appendLike(call)
			if !grows || !deferred && !reachableFrom(store, p.instr) {
				continue
			}
			field := st.Field(fa.Field).Name()
			if c.putGuarded(fn, p) || c.dropsField(fn, p, t, field) {
				return "", token.NoPos, token.NoPos, false
			}
			if other, ok := c.guardedPutOf(n.Origin().Obj()); ok {
				return field, store.Pos(), other, true
			}
			return "", token.NoPos, token.NoPos, false
		}
	}
	return "", token.NoPos, token.NoPos, false
}

// guardedPutOf returns a Put of a pointer to the named type tn, in a
// function of the package, that a size check guards; the Puts are found on
// first use.
func (c *checker) guardedPutOf(tn *types.TypeName) (token.Pos, bool) {
	if c.guardedPuts == nil {
		c.guardedPuts = map[*types.TypeName]token.Pos{}
		for _, fn := range c.funcs {
			puts, _ := c.sites(fn)
			for i := range puts {
				q := &puts[i]
				if q.prim != syncPut && q.prim != typedPut {
					continue
				}
				arg := q.arg
				if mi, ok := arg.(*ssa.MakeInterface); ok {
					arg = mi.X
				}
				qn, ok := types.Unalias(derefType(arg.Type())).(*types.Named)
				if !ok || !isPointer(arg.Type()) {
					continue
				}
				if _, seen := c.guardedPuts[qn.Origin().Obj()]; !seen && c.putGuarded(fn, q) {
					c.guardedPuts[qn.Origin().Obj()] = q.instr.Pos()
				}
			}
		}
	}
	pos, ok := c.guardedPuts[tn]
	return pos, ok
}

// dropsField reports whether fn sets the field named field of the object
// of type t that p puts to nil before the Put, itself (b.buf = nil) or through a
// function of the package given nil (b.SetBuf(nil), golang/protobuf#953's
// fix): the grown buffer does not go back.
func (c *checker) dropsField(fn *ssa.Function, p *putSite, t types.Type, field string) bool {
	st, ok := derefStruct(t)
	if !ok {
		return false
	}
	f := -1
	for i := 0; i < st.NumFields() && i < 64; i++ {
		if st.Field(i).Name() == field {
			f = i
		}
	}
	if f < 0 {
		return false
	}
	scan := func(fn *ssa.Function, al map[ssa.Value]bool, before ssa.Instruction) fieldSet {
		dropped := fieldSet(0)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if before != nil && !mayPrecede(instr, before) {
					continue
				}
				switch x := instr.(type) {
				case *ssa.Store:
					if fa, ok := x.Addr.(*ssa.FieldAddr); ok && al[fa.X] && fa.Field < 64 && isNil(x.Val) {
						dropped |= 1 << fa.Field
					}
				case ssa.CallInstruction:
					dropped |= zeroedByCall(x.Common(), al)
				}
			}
		}
		return dropped
	}
	al := c.aliasesOf(fn, p.key, true)
	dropped := scan(fn, al, p.instr)
	// A deferred closure that puts a captured object (defer func() {
	// b.SetBuf(nil); pool.Put(b) }()): what the closure drops.
	if mc, ok := p.instr.Common().Value.(*ssa.MakeClosure); ok {
		if clo, ok := mc.Fn.(*ssa.Function); ok {
			for j, bnd := range mc.Bindings {
				if j < len(clo.FreeVars) && (al[bnd] || bnd == p.key.v) {
					dropped |= scan(clo, c.aliasesOf(clo, objKey{clo.FreeVars[j], p.key.cell}, true), nil)
				}
			}
		}
	}
	return dropped&(1<<f) != 0
}

// growingField reports whether t is a pointer to a struct type of this
// package with a slice field that one of its methods appends a
// variable amount to (append(r.body, p...), or append in a loop): the
// pooled object is a growable buffer even though it is not a slice.
func (c *checker) growingField(t types.Type) (field, method string, ok bool) {
	ptr, isPtr := t.Underlying().(*types.Pointer)
	if !isPtr {
		return "", "", false
	}
	named, isNamed := types.Unalias(ptr.Elem()).(*types.Named)
	if !isNamed || named.Obj().Pkg() != c.pass.Pkg {
		return "", "", false
	}
	if c.growing == nil {
		c.growing = map[*types.TypeName][2]string{}
		bounded := map[*types.TypeName]bool{}
		boundedField := map[[2]any]bool{} // {type name, field index} of a buffer field whose Cap or Len is compared
		cleared := map[[2]any]bool{}      // {type name, field index} set to nil somewhere
		type cand struct {
			tn           *types.TypeName
			field        int
			name, method string
			buffer       bool // a bytes.Buffer field: only a bound on it counts
		}
		var cands []cand
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if st, ok := instr.(*ssa.Store); ok {
						if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isNil(st.Val) {
							if n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named); ok {
								cleared[[2]any{n.Origin().Obj(), fa.Field}] = true
							}
						}
						// a.buf = make([]byte, 2*cap(a.buf)+n) in a method:
						// the field grows from its own size to what the
						// caller asks for (kubernetes/kubernetes#141299's
						// Allocator). A size that does not depend on the
						// field's (an alphabet's length) is not growth.
						if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fn.Signature.Recv() != nil && len(fn.Params) > 0 && fa.X == fn.Params[0] {
							if ms, ok := st.Val.(*ssa.MakeSlice); ok && isByteSlice(ms.Type()) && (sizedFrom(ms.Len, fa, 4) || sizedFrom(ms.Cap, fa, 4) || madeWhenSmaller(st, fa) && readSize(ms.Len, 4)) {
								n, ok1 := types.Unalias(derefType(fa.X.Type())).(*types.Named)
								sst, ok2 := derefStruct(fa.X.Type())
								how := " makes it the size its caller asks for"
								if !sizedFrom(ms.Len, fa, 4) && !sizedFrom(ms.Cap, fa, 4) {
									how = " makes it as large as a length read from its input"
								}
								if ok1 && ok2 && fa.Field < sst.NumFields() && n.Obj().Pkg() == c.pass.Pkg {
									cands = append(cands, cand{n.Origin().Obj(), fa.Field, sst.Field(fa.Field).Name(), displayName(fn) + how, false})
								}
							}
						}
						// b := a.buf; ...; b = grow(b, n) in a loop; a.buf = b[:n]:
						// the field grows through a local copy and a helper
						// that appends to its argument
						// (VictoriaMetrics/VictoriaLogs#869's ReadFrom).
						if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fn.Signature.Recv() != nil && len(fn.Params) > 0 && fa.X == fn.Params[0] && isByteSlice(st.Val.Type()) && !isResetName(fn.Name()) {
							n, ok1 := types.Unalias(derefType(fa.X.Type())).(*types.Named)
							sst, ok2 := derefStruct(fa.X.Type())
							if ok1 && ok2 && fa.Field < sst.NumFields() && n.Obj().Pkg() == c.pass.Pkg && grownInLoopFrom(st.Val, fa) {
								cands = append(cands, cand{n.Origin().Obj(), fa.Field, sst.Field(fa.Field).Name(), displayName(fn) + " appends to it", false})
							}
						}
						// x.b, err = read(x.b[:0]) with read a function value
						// (a callback, a func field): the dst idiom, which
						// appends to the buffer it is given and returns it
						// (VictoriaMetrics c14dafc's scrape bodies).
						if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isByteSlice(st.Val.Type()) && dstIdiom(st.Val, fa) {
							n, ok1 := types.Unalias(derefType(fa.X.Type())).(*types.Named)
							sst, ok2 := derefStruct(fa.X.Type())
							if ok1 && ok2 && fa.Field < sst.NumFields() && n.Obj().Pkg() == c.pass.Pkg {
								cands = append(cands, cand{n.Origin().Obj(), fa.Field, sst.Field(fa.Field).Name(), displayName(fn) + " has a function value append to it", false})
							}
						}
						continue
					}
					call, ok := instr.(*ssa.Call)
					if !ok {
						continue
					}
					if fa, name, ok := bufferFieldCall(call); ok {
						// A bytes.Buffer field (or *bytes.Buffer) of a struct
						// of the package: written to, it grows; its Cap or
						// Len compared anywhere bounds the type.
						n, ok1 := types.Unalias(derefType(fa.X.Type())).(*types.Named)
						st, ok2 := derefStruct(fa.X.Type())
						if !ok1 || !ok2 || fa.Field >= st.NumFields() {
							continue
						}
						switch name {
						case "Cap", "Len", "Available":
							if compared(call) {
								boundedField[[2]any{n.Origin().Obj(), fa.Field}] = true
							}
						case "Write", "WriteString", "WriteByte", "WriteRune", "ReadFrom", "Grow", "(io.Writer)":
							cands = append(cands, cand{n.Origin().Obj(), fa.Field, st.Field(fa.Field).Name(), displayName(fn) + " writes to it", true})
						}
						continue
					}
					if callee := call.Call.StaticCallee(); callee != nil && len(call.Call.Args) > 0 && growsReceiver(callee) {
						// p.buf.write(b), where buf's type is a slice with
						// methods that append to it (fmt's buffer,
						// golang/go#27740's pp).
						if fa, ok := call.Call.Args[0].(*ssa.FieldAddr); ok {
							n, ok1 := types.Unalias(derefType(fa.X.Type())).(*types.Named)
							st, ok2 := derefStruct(fa.X.Type())
							if ok1 && ok2 && fa.Field < st.NumFields() && n.Obj().Pkg() == c.pass.Pkg {
								cands = append(cands, cand{n.Origin().Obj(), fa.Field, st.Field(fa.Field).Name(), displayName(fn) + " appends to it", false})
							}
						}
						continue
					}
					bi, ok := call.Call.Value.(*ssa.Builtin)
					// a.buf = strconv.AppendQuote(a.buf, v), or a helper
					// of the package that appends to its first argument
					// and returns it (rs/zerolog e0f8de6).
					helper := !ok && len(call.Call.Args) > 0 && appendLike(call)
					if !ok && !helper || len(call.Call.Args) == 0 {
						continue
					}
					// cap(x.f) or len(x.f) compared anywhere bounds the type.
					if !helper && (bi.Name() == "cap" || bi.Name() == "len") && comparedToBound(call) && !onlyComparedToRequest(call) {
						if ld, ok := call.Call.Args[0].(*ssa.UnOp); ok && ld.Op == token.MUL {
							if fa, ok := ld.X.(*ssa.FieldAddr); ok && !onlyValidated(call, fa) {
								if n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named); ok {
									bounded[n.Origin().Obj()] = true
								}
							}
						}
						continue
					}
					if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
						continue
					}
					recv := fn.Params[0]
					// A slice of buffers appended one at a time by a method
					// (a.segs = append(a.segs, seg)) grows with the number
					// of calls, however few each call adds (go-capnp#351).
					segments := !helper && bi.Name() == "append" && len(call.Call.Args) >= 2 && sliceOfSlices(call.Type())
					if !segments && (!helper && (bi.Name() != "append" || len(call.Call.Args) < 2 || fixedAppend(call)) || !isByteSlice(call.Type())) {
						continue
					}
					// append(a.buf, ...), or append(a.buf[:0], data...) of a
					// []byte the caller passes: the buffer is reused, and
					// grows to the largest input (wundergraph/graphql-go-
					// tools#881's parser). A string copied in that way is a
					// name, a URI or a host, not a payload.
					arg0 := call.Call.Args[0]
					if sl, ok := arg0.(*ssa.Slice); ok {
						if helper || len(call.Call.Args) < 2 || !isByteSlice(call.Call.Args[1].Type()) {
							continue
						}
						if _, ok := call.Call.Args[1].(*ssa.Parameter); !ok {
							continue
						}
						arg0 = sl.X
					}
					ld, ok := arg0.(*ssa.UnOp)
					if !ok || ld.Op != token.MUL {
						continue
					}
					fa, ok := ld.X.(*ssa.FieldAddr)
					if !ok || fa.X != recv {
						continue
					}
					st, ok := derefStruct(recv.Type())
					rn, ok2 := types.Unalias(derefType(recv.Type())).(*types.Named)
					if !ok || !ok2 || fa.Field >= st.NumFields() {
						continue
					}
					cands = append(cands, cand{rn.Obj(), fa.Field, st.Field(fa.Field).Name(), displayName(fn) + " appends to it", false})
				}
			}
		}
		for _, x := range cands {
			if x.buffer && boundedField[[2]any{x.tn, x.field}] || !x.buffer && bounded[x.tn] || cleared[[2]any{x.tn, x.field}] {
				continue // bounded, or a buffer borrowed for a while (captured = nil after use)
			}
			if _, seen := c.growing[x.tn]; !seen {
				c.growing[x.tn] = [2]string{x.name, x.method}
			}
		}
	}
	g, ok := c.growing[named.Origin().Obj()]
	return g[0], g[1], ok
}

// checkUnboundedWrapper reports a growable buffer given to a Put wrapper
// of the package whose parameter is an interface (func (p *ObjectPool)
// Put(o PoolObject) { o.Reset(); p.pool.Put(o) }): inside the wrapper the
// buffer's type is unknown, so the call is where it can be judged
// (dubbogo/gost#70).
func (c *checker) checkUnboundedWrapper(fn *ssa.Function, p putSite) {
	if p.param < 0 || p.cond || p.field || p.instr == nil {
		return
	}
	callee := p.instr.Common().StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || p.param >= len(callee.Params) {
		return
	}
	// A parameter of interface type, or of a type parameter of a generic
	// wrapper (func (p *pool[E]) put(v E), jackc/pgx#2136).
	pt := callee.Params[p.param].Type()
	if o := callee.Origin(); o != nil && p.param < len(o.Params) {
		if _, ok := o.Params[p.param].Type().(*types.TypeParam); ok {
			pt = o.Params[p.param].Type()
		}
	}
	if _, tp := pt.(*types.TypeParam); !tp && !types.IsInterface(pt) {
		return
	}
	arg := p.arg
	if mi, ok := arg.(*ssa.MakeInterface); ok {
		arg = mi.X
	}
	if ci, ok := arg.(*ssa.ChangeInterface); ok {
		arg = ci.X
	}
	t := arg.Type()
	if types.IsInterface(t) && !isNil(arg) {
		// An interface of the package whose implementation keeps a
		// buffer that grows (m3db/m3metrics#76's BufferedEncoder, put
		// through an ObjectPool of any).
		if field, method, ok := c.growingImpl(t); ok && !c.putGuarded(fn, &p) && !c.guarded(callee, objKey{callee.Params[p.param], false}, 0) {
			c.report(checkUnbounded, p.instr.Pos(), nil,
				"%s (%s) is put into the pool through %s without a capacity check, and %s grows without bound (%s): one huge buffer stays pinned in the pool (golang/go#23199); drop objects whose buffer is above a bound",
				c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), displayName(callee), field, method)
		}
		return
	}
	if isNil(arg) || !growable(t) || !isBuilder(t) || c.builderDropped(fn, &p) {
		return
	}
	if c.putGuarded(fn, &p) || c.guarded(callee, objKey{callee.Params[p.param], false}, 0) {
		return
	}
	c.report(checkUnbounded, p.instr.Pos(), nil,
		"%s (%s) is put into the pool through %s, which takes any object, without a capacity check: one huge buffer stays pinned in the pool (golang/go#23199); drop buffers above a bound",
		c.objName(&p), types.TypeString(t, types.RelativeTo(c.pass.Pkg)), displayName(callee))
}

// displayName names fn for a message: its name, or "a function literal in
// f" for a closure.
func displayName(fn *ssa.Function) string {
	if fn.Parent() != nil {
		return "a function literal in " + displayName(fn.Parent())
	}
	return fn.Name()
}

// bufferFieldCall returns, for a call on a bytes.Buffer held in a struct
// field (x.buf of type bytes.Buffer or *bytes.Buffer), the field and the
// method's name; a field given as an io.Writer to another function
// (fmt.Fprintf(&x.buf, ...)) is named "(io.Writer)".
func bufferFieldCall(call *ssa.Call) (*ssa.FieldAddr, string, bool) {
	fieldOf := func(v ssa.Value) (*ssa.FieldAddr, bool) {
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
			v = u.X // x.buf of type *bytes.Buffer, loaded
		}
		fa, ok := v.(*ssa.FieldAddr)
		if !ok || !isNamed(derefType(derefType(fa.Type())), "bytes", "Buffer") {
			return nil, false
		}
		return fa, true
	}
	com := &call.Call
	args := com.Args
	if callee := com.StaticCallee(); callee != nil && callee.Signature.Recv() != nil && len(com.Args) > 0 {
		if fa, ok := fieldOf(com.Args[0]); ok && isNamed(derefType(callee.Signature.Recv().Type()), "bytes", "Buffer") {
			return fa, callee.Name(), true
		}
		// Another method given the buffer as an io.Writer:
		// zw.Reset(&x.buf) makes it zw's output (k0sproject/rig#350).
		args = args[1:]
	}
	for _, a := range args {
		if mi, ok := a.(*ssa.MakeInterface); ok {
			if fa, ok := fieldOf(mi.X); ok {
				return fa, "(io.Writer)", true
			}
		}
	}
	// A helper of the package that fills the buffer it is given
	// (readAll(body, d.buf): dest.ReadFrom(source),
	// DataDog/datadog-trace-agent#206).
	if callee := com.StaticCallee(); callee != nil && len(callee.Blocks) > 0 && len(callee.Params) == len(com.Args) {
		for i, a := range com.Args {
			if fa, ok := fieldOf(a); ok && writesBuffer(callee, callee.Params[i]) {
				return fa, "(io.Writer)", true
			}
		}
	}
	return nil, "", false
}

// writesBuffer reports whether fn calls a method of *bytes.Buffer that
// grows it on its parameter prm.
func writesBuffer(fn *ssa.Function, prm *ssa.Parameter) bool {
	if !isNamed(derefType(prm.Type()), "bytes", "Buffer") {
		return false
	}
	for _, ref := range *prm.Referrers() {
		call, ok := ref.(*ssa.Call)
		if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != prm {
			continue
		}
		if g := call.Call.StaticCallee(); g != nil && g.Signature.Recv() != nil {
			switch g.Name() {
			case "Write", "WriteString", "WriteByte", "WriteRune", "ReadFrom", "Grow":
				return true
			}
		}
	}
	return false
}

// checkGenericBoxing reports a value that is not pointer-shaped given to a
// generic Put wrapper (func (p *Pool[T]) Put(v T) { p.p.Put(v) }) whose
// parameter of type T the wrapper converts to an interface: instantiated
// with []byte, every Put allocates.
func (c *checker) checkGenericBoxing(p putSite) {
	if p.prim != nil || p.param < 0 || p.instr == nil {
		return
	}
	callee := p.instr.Common().StaticCallee()
	if callee == nil || callee.Origin() == nil {
		return
	}
	origin := callee.Origin()
	if p.param >= len(origin.Params) {
		return
	}
	prm := origin.Params[p.param]
	if _, ok := prm.Type().(*types.TypeParam); !ok {
		return
	}
	t := p.arg.Type()
	if containsTypeParam(t) || pointerShaped(t) || smallValue(t) {
		return
	}
	boxed := false
	for _, ref := range *prm.Referrers() {
		switch x := ref.(type) {
		case *ssa.MakeInterface:
			boxed = true
		case *ssa.ChangeType: // any <- T in generic code
			boxed = boxed || types.IsInterface(x.Type())
		}
	}
	if !boxed {
		return
	}
	c.report(checkNonPointer, p.instr.Pos(), nil,
		"non-pointer value of type %s put into a sync.Pool through the generic %s, which converts it to an interface: that allocates on every Put; pool a pointer instead",
		types.TypeString(t, types.RelativeTo(c.pass.Pkg)), origin.Name())
}

func isByteSlice(t types.Type) bool {
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// guarded reports whether fn inspects the size of the object of key (cap,
// len, Cap, Len, Available) — or, for a parameter, whether a caller in this
// package does, or for a captured variable, whether the enclosing function
// does.
func (c *checker) guarded(fn *ssa.Function, key objKey, depth int) bool {
	return c.guardedBefore(fn, key, depth, nil)
}

// viewsReceiver reports whether com calls a method that returns memory of
// its receiver: a Bytes-like method, or one of the package whose result
// shares a field of the receiver (func (b *Buffer) Bytes() []byte { return
// b.buf }).
func (c *checker) viewsReceiver(com *ssa.CallCommon) bool {
	if len(com.Args) > 0 && c.aliasingCall(com, com.Args[0]) {
		return true
	}
	ce, ok := c.calleeOf(com)
	return ok && ce.sum != nil && len(ce.sum.views) > 0
}

// putGuarded is guarded for the Put p: a Put deferred as it is (defer
// pool.Put(b)) gets its argument when the defer runs, so only a size
// check that can come before that can skip it; one made later (if
// b.Len() < 32 { return }) decides nothing about the Put
// (ChainSafe/gossamer#2929).
func (c *checker) putGuarded(fn *ssa.Function, p *putSite) bool {
	if poolBySize(p) {
		return true
	}
	key := p.key
	if ph, ok := key.v.(*ssa.Phi); ok && !key.cell {
		// if b.Cap() > max { b = new(bytes.Buffer) }; pool.Put(b): the
		// guard on the parameter bounds what the phi puts.
		if prm := replacedParam(ph); prm != nil {
			key = objKey{prm, false}
		}
	}
	// pool := small; if cap(b) >= bigSize { pool = big }; pool.Put(&b):
	// the size picks the pool, and every path puts (lesismal/nbio
	// 28c80af's Free).
	if len(p.args) > 0 && key.v == p.key.v {
		if _, ok := p.args[0].(*ssa.Phi); ok && !avoidsBlock(fn, p.instr.Block()) {
			return false
		}
	}
	at, _ := p.instr.(*ssa.Defer)
	if at == nil {
		return c.guarded(fn, key, 2)
	}
	return c.guardedBefore(fn, key, 2, at)
}

// avoidsBlock reports whether some path from the entry of fn returns
// without passing through b.
func avoidsBlock(fn *ssa.Function, b *ssa.BasicBlock) bool {
	stop := map[*ssa.BasicBlock]bool{b: true}
	return searchBlocks(fn, stop, func(x *ssa.BasicBlock) []*ssa.BasicBlock { return x.Succs }, func(x *ssa.BasicBlock) bool {
		_, ok := lastInstr(x).(*ssa.Return)
		return x != b && ok
	})
}

// poolBySize reports whether the pool p puts into is looked up in a map by
// the object's size (pools[cap(sw.buf)].Put(sw)): a pool per exact size,
// created for the sizes the program configures (coder/websocket's sliding
// windows, pooled by window size). An array of power-of-two classes
// (caches[bits.Len(cap(b))]) is not counted: its top classes hold whatever
// one huge request left there (bytedance/gopkg#214).
func poolBySize(p *putSite) bool {
	if len(p.args) == 0 {
		return false
	}
	var sized func(v ssa.Value, depth int) bool
	sized = func(v ssa.Value, depth int) bool {
		if depth > 4 {
			return false
		}
		switch x := v.(type) {
		case *ssa.Convert:
			return sized(x.X, depth+1)
		case *ssa.BinOp:
			return sized(x.X, depth+1) || sized(x.Y, depth+1)
		case *ssa.Call:
			if isBuiltin(&x.Call, "cap") || isBuiltin(&x.Call, "len") {
				return true
			}
			for _, a := range x.Call.Args {
				if sized(a, depth+1) {
					return true
				}
			}
		}
		return false
	}
	v := p.args[0]
	for i := 0; i < 3; i++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Lookup:
			return sized(x.Index, 0)
		default:
			return false
		}
	}
	return false
}

// guardedBefore is guarded, counting in fn only the size checks that can
// run before at (when at is not nil).
func (c *checker) guardedBefore(fn *ssa.Function, key objKey, depth int, at ssa.Instruction) bool {
	al := map[ssa.Value]bool{}
	for v := key.v; v != nil; {
		for a := range c.aliasesOf(fn, objKey{v, key.cell && v == key.v}, true) {
			al[a] = true
		}
		switch x := v.(type) {
		case *ssa.Slice:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.Call:
			// bytes.NewBuffer(b[:0]): a wrapper over the caller's slice,
			// whose size check bounds it (bakape/thumbnailer ea18283's
			// fix).
			v = nil
			if idx := keeping[calleeName(&x.Call)]; len(idx) > 0 && idx[0] == 0 && len(x.Call.Args) > 0 && !x.Call.IsInvoke() {
				v = x.Call.Args[0]
			}
		default:
			v = nil
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || at != nil && !mayPrecede(ci, at) {
				continue
			}
			com := ci.Common()
			if len(com.Args) == 0 && !com.IsInvoke() {
				continue
			}
			if bi, ok := com.Value.(*ssa.Builtin); ok {
				arg := com.Args[0]
				if view, ok := arg.(*ssa.Call); ok && len(view.Call.Args) > 0 && c.viewsReceiver(&view.Call) {
					// cap(b.Bytes()): the size of what the object holds
					// (istio/istio#8361's PutBuffer).
					arg = view.Call.Args[0]
				}
				if (bi.Name() == "cap" || bi.Name() == "len") && (al[arg] || sameLoc(arg, key.v) || derefLoc(arg, key.v)) &&
					(compared(ci) || bi.Name() == "cap" && capEqualsBound(ci)) && !fitAndGrow(fn, ci, al) {
					return true
				}
				continue
			}
			if c.sizePredicate(ci, al, key) {
				return true
			}
			var name string
			var recv ssa.Value
			if com.IsInvoke() {
				name, recv = com.Method.Name(), com.Value
			} else if callee := com.StaticCallee(); callee != nil && callee.Signature.Recv() != nil {
				name, recv = callee.Name(), com.Args[0]
			}
			switch name {
			case "Cap", "Len", "Available", "Size":
				// enc.Buffer().Cap(): a getter of the object's buffer
				// through its interface.
				if (al[recv] || sameLoc(recv, key.v) || al[invokeGetterRecv(recv)]) && compared(ci) {
					return true
				}
			}
		}
	}
	if depth == 0 || key.cell && !isFreeVar(key.v) {
		return false
	}
	switch v := key.v.(type) {
	case *ssa.Parameter:
		idx := -1
		for i, q := range fn.Params {
			if q == v {
				idx = i
			}
		}
		for _, g := range c.funcs {
			for _, b := range g.Blocks {
				for _, instr := range b.Instrs {
					ci, ok := instr.(ssa.CallInstruction)
					if !ok {
						continue
					}
					callee := ci.Common().StaticCallee()
					if callee == nil || callee != fn && callee.Origin() != fn || idx >= len(ci.Common().Args) {
						continue
					}
					if c.guarded(g, rootOf(ci.Common().Args[idx]), depth-1) {
						return true
					}
				}
			}
		}
	case *ssa.FreeVar:
		for _, b := range bindingsOf(fn, v) {
			if c.guarded(fn.Parent(), objKey{b, key.cell}, depth-1) {
				return true
			}
		}
	}
	return false
}

// sizePredicate reports whether ci calls a function of the package that
// is given the object and returns a bool computed from a size check of it
// (if !bufferReusable(buf) { return }; livetemplate/livetemplate#476).
func (c *checker) sizePredicate(ci ssa.CallInstruction, al map[ssa.Value]bool, key objKey) bool {
	call, ok := ci.(*ssa.Call)
	if !ok || !isBool(call.Type()) {
		return false
	}
	callee := call.Call.StaticCallee()
	if callee == nil || len(callee.Blocks) == 0 || callee == ci.Parent() {
		return false
	}
	for i, a := range call.Call.Args {
		if i < len(callee.Params) && (al[a] || sameLoc(a, key.v)) && c.guarded(callee, objKey{callee.Params[i], false}, 0) {
			return true
		}
	}
	return false
}

// smallConst reports whether v is an integer constant below 64.
func smallConst(v ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	n, ok := constInt(v)
	return ok && n < 64
}

// constInt returns the value of v if it is an integer constant.
func constInt(v ssa.Value) (int64, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// compared reports whether the result of a call is compared with < > <= >=,
// as a size bound is.
func compared(ci ssa.CallInstruction) bool { return comparedWith(ci, false) }

// comparedToBound is compared for a size compared anywhere in the
// package, away from any Put: len(b) > 1 tests for content, not a bound,
// so a comparison with a constant below 64 does not count
// (uber-go/zap#134's addKey).
func comparedToBound(ci ssa.CallInstruction) bool { return comparedWith(ci, true) }

// onlyComparedToRequest reports whether every comparison of the result of
// call is with a size the caller passed (if cap(a.buf) >= n { reuse }):
// a test of whether the buffer fits a request, not a bound on it.
func onlyComparedToRequest(call *ssa.Call) bool { return sizeComparedOnlyWith(call, fromCaller) }

// onlyValidated reports whether every comparison of the size that call
// computes of the field at fa is a check of its content rather than a
// bound: with a small constant, a size the caller passed, or a length read
// from the field's own bytes (len(r.raw) < 2+int(r.raw[1]) before parsing:
// plgd-dev/go-coap#230).
func onlyValidated(call *ssa.Call, fa *ssa.FieldAddr) bool {
	for _, ref := range *call.Referrers() {
		x, ok := ref.(*ssa.BinOp)
		if !ok {
			continue
		}
		var other ssa.Value
		switch {
		case x.Op != token.LSS && x.Op != token.GTR && x.Op != token.LEQ && x.Op != token.GEQ:
			continue
		case x.X == ssa.Value(call):
			other = x.Y
		default:
			other = x.X
		}
		if smallConst(other) || fromCaller(stripLen(other)) || readFromField(other, fa, 4) || growsWhenSmaller(x, call, fa) {
			continue
		}
		return false
	}
	return true
}

// stripLen returns x for len(x) or cap(x), else v.
func stripLen(v ssa.Value) ssa.Value {
	if c, ok := v.(*ssa.Call); ok && (isBuiltin(&c.Call, "len") || isBuiltin(&c.Call, "cap")) && len(c.Call.Args) == 1 {
		return c.Call.Args[0]
	}
	return v
}

// growsWhenSmaller reports whether the comparison x says the size that
// call computes of the field at fa is smaller than something and the
// branch taken then stores into the field (if len(r.buf) < size { r.buf =
// append(r.buf, make([]byte, size-len(r.buf))...) }): a fit test that
// grows the field, not a bound.
func growsWhenSmaller(x *ssa.BinOp, call *ssa.Call, fa *ssa.FieldAddr) bool {
	smaller := (x.Op == token.LSS || x.Op == token.LEQ) == (x.X == ssa.Value(call))
	for _, ref := range *x.Referrers() {
		ifi, ok := ref.(*ssa.If)
		if !ok {
			continue
		}
		b := ifi.Block().Succs[1]
		if smaller {
			b = ifi.Block().Succs[0]
		}
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && sameAddr(st.Addr, fa, 0) && grownValue(st.Val) {
				return true
			}
			// b := a.buf; if cap(b) < 4096 { b = grow(b, 4096) }: a
			// pre-size of a local copy, stored back later.
			if g, ok := instr.(*ssa.Call); ok && len(g.Call.Args) > 0 && len(call.Call.Args) == 1 &&
				(isBuiltin(&g.Call, "append") || appendLike(g)) && stripSlice(g.Call.Args[0]) == call.Call.Args[0] {
				return true
			}
		}
	}
	return false
}

// madeWhenSmaller reports whether the store st of a new slice into the
// field at fa is reached only from the branch where the field's size was
// found smaller than something (if cap(p.body) < n { p.body = make([]byte,
// n+n/2) }, viciious/go-tarantool#69): the field grows to fit whatever it
// is asked to hold.
func madeWhenSmaller(st *ssa.Store, fa *ssa.FieldAddr) bool {
	b := st.Block()
	if len(b.Preds) != 1 {
		return false
	}
	ifi, ok := b.Preds[0].Instrs[len(b.Preds[0].Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	x, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || x.Op != token.LSS && x.Op != token.GTR && x.Op != token.LEQ && x.Op != token.GEQ {
		return false
	}
	sizeOfField := func(v ssa.Value) bool {
		call, ok := stripConv(v).(*ssa.Call)
		if !ok || !isBuiltin(&call.Call, "len") && !isBuiltin(&call.Call, "cap") || len(call.Call.Args) != 1 {
			return false
		}
		ld, ok := call.Call.Args[0].(*ssa.UnOp)
		return ok && ld.Op == token.MUL && sameAddr(ld.X, fa, 0)
	}
	var fieldLeft bool
	switch {
	case sizeOfField(x.X):
		fieldLeft = true
	case sizeOfField(x.Y):
	default:
		return false
	}
	smaller := (x.Op == token.LSS || x.Op == token.LEQ) == fieldLeft
	if smaller {
		return ifi.Block().Succs[0] == b
	}
	return ifi.Block().Succs[1] == b
}

// readSize reports whether v is computed, depth operations deep, from a
// length decoded from input (binary.BigEndian.Uint32(h), a byte of a
// slice): a size the data asks for, unlike a parameter (an alphabet's
// length) that the program chooses.
func readSize(v ssa.Value, depth int) bool {
	if depth < 0 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return readSize(x.X, depth-1)
	case *ssa.BinOp:
		return readSize(x.X, depth-1) || readSize(x.Y, depth-1)
	case *ssa.UnOp:
		_, ok := x.X.(*ssa.IndexAddr)
		return ok && x.Op == token.MUL
	case *ssa.Call:
		if g, ok := x.Call.Value.(*ssa.Function); ok && g.Pkg != nil && g.Pkg.Pkg.Path() == "encoding/binary" {
			return true
		}
		if m := x.Call.Method; m != nil && m.Pkg() != nil && m.Pkg().Path() == "encoding/binary" {
			return true
		}
		if g := x.Call.StaticCallee(); g != nil && g.Pkg != nil && g.Pkg.Pkg.Path() == "encoding/binary" {
			return true
		}
	}
	return false
}

// grownValue reports whether v is a slice made or extended here (append,
// make), not a re-slice: if len(e.data) >= tooBig { ... } else { e.data =
// e.data[0:0] } bounds the field (encoding/gob's encBuffer.Reset).
func grownValue(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeSlice:
		return true
	case *ssa.Call:
		return isBuiltin(&x.Call, "append")
	}
	return false
}

// readFromField reports whether v is computed, depth operations deep, from
// a byte of another load of the field at fa.
func readFromField(v ssa.Value, fa *ssa.FieldAddr, depth int) bool {
	if depth < 0 || v == nil {
		return false
	}
	switch x := v.(type) {
	case *ssa.Convert:
		return readFromField(x.X, fa, depth-1)
	case *ssa.BinOp:
		return readFromField(x.X, fa, depth-1) || readFromField(x.Y, fa, depth-1)
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			if ld, ok := ia.X.(*ssa.UnOp); ok && ld.Op == token.MUL && sameAddr(ld.X, fa, 0) {
				return true
			}
		}
	}
	return false
}

// sizeComparedOnlyWith reports whether call's result is compared (<, >,
// <=, >=) at least once, and every such comparison is with a value for
// which ok holds.
func sizeComparedOnlyWith(call *ssa.Call, ok func(other ssa.Value) bool) bool {
	found := false
	for _, ref := range *call.Referrers() {
		x, isBin := ref.(*ssa.BinOp)
		if !isBin {
			continue
		}
		switch x.Op {
		case token.LSS, token.GTR, token.LEQ, token.GEQ:
			other := x.Y
			if other == ssa.Value(call) {
				other = x.X
			}
			if !ok(other) {
				return false
			}
			found = true
		}
	}
	return found
}

// comparedWith is compared, leaving out comparisons with a constant below
// 64 when skipSmall is set; the comparison of a loop index with the length
// that ends a range loop is never a bound.
func comparedWith(ci ssa.CallInstruction, skipSmall bool) bool {
	call, ok := ci.(*ssa.Call)
	if !ok {
		return false
	}
	for _, ref := range *call.Referrers() {
		switch x := ref.(type) {
		case *ssa.BinOp:
			switch x.Op {
			case token.LSS, token.GTR, token.LEQ, token.GEQ:
				if loopIndex(x.X) || loopIndex(x.Y) {
					continue // the end of a range loop, not a bound
				}
				if !skipSmall || !smallConst(x.X) && !smallConst(x.Y) {
					return true
				}
			}
		case *ssa.Call:
			// A predicate on the size: if canReuse(cap(b)) { Put(b) }.
			if _, builtin := x.Call.Value.(*ssa.Builtin); !builtin && isBool(x.Type()) {
				return true
			}
		}
	}
	return false
}

// capEqualsBound reports whether the capacity that ci computes is compared
// for equality with a constant of 64 or more: a Put wrapper that puts only
// buffers of its exact block size (if cap(buf) != defaultBlockSize {
// return }, nats-io/nats-server's freeBlkBuffer) bounds what it puts.
func capEqualsBound(ci ssa.CallInstruction) bool {
	for _, other := range comparedWithOps(ci, token.EQL, token.NEQ) {
		if n, ok := constInt(other); ok && n >= 64 || sizeClassField(other) {
			return true
		}
	}
	return false
}

// sizeClassField reports whether v is loaded from a field of a struct that
// also holds a sync.Pool or a channel: the size class of that pool (if
// cap(*b) == pools[i].size { pools[i].pool.Put(b) }, go-gost's bufpool).
func sizeClassField(v ssa.Value) bool {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return false
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	st, ok := derefStruct(fa.X.Type())
	if !ok {
		return false
	}
	if b, ok := fa.Type().(*types.Pointer).Elem().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		t := st.Field(i).Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if isNamed(t, "sync", "Pool") {
			return true
		}
		if _, ok := t.Underlying().(*types.Chan); ok {
			return true // a channel pool's buffer size (minio's BytePoolCap.wcap)
		}
	}
	return false
}

// classGuarded reports whether the Put p runs only where the object's
// capacity equals the size class of the pool (sizeClassField): in a loop
// over the classes, a later iteration matches another class only if two
// classes have one size.
func classGuarded(p *putSite) bool {
	isCap := func(v ssa.Value) bool {
		call, ok := v.(*ssa.Call)
		return ok && isBuiltin(&call.Call, "cap")
	}
	found := false
	dominatingBranches(p.instr.Block(), func(cond ssa.Value, taken bool) bool {
		cmp, ok := cond.(*ssa.BinOp)
		found = ok && taken && cmp.Op == token.EQL &&
			(isCap(cmp.X) && sizeClassField(cmp.Y) || isCap(cmp.Y) && sizeClassField(cmp.X))
		return !found
	})
	return found
}

// comparedWithOps returns what the result of the call ci is compared with
// by the given operators, the other operand of each comparison.
func comparedWithOps(ci ssa.CallInstruction, ops ...token.Token) []ssa.Value {
	call, ok := ci.(*ssa.Call)
	if !ok || call.Referrers() == nil {
		return nil
	}
	var out []ssa.Value
	for _, ref := range *call.Referrers() {
		x, ok := ref.(*ssa.BinOp)
		if !ok || !slices.Contains(ops, x.Op) {
			continue
		}
		if x.X == ssa.Value(call) {
			out = append(out, x.Y)
		} else {
			out = append(out, x.X)
		}
	}
	return out
}

// loopIndex reports whether v is a phi, such as the index of
// for i := range s, whose comparison with len(s) ends a loop.
func loopIndex(v ssa.Value) bool {
	if b, ok := v.(*ssa.BinOp); ok && b.Op == token.ADD && isConstN(b.Y, 1) {
		v = b.X // i+1 < len(s): the form range loops take
	}
	phi, ok := v.(*ssa.Phi)
	if !ok {
		return false
	}
	// A counter: starts at 0 (or -1 for range) and steps by one.
	var start, step bool
	for _, e := range phi.Edges {
		if isConstN(e, 0) || isConstN(e, -1) {
			start = true
		}
		if b, ok := e.(*ssa.BinOp); ok && b.Op == token.ADD && isConstN(b.Y, 1) && (b.X == phi || b.X == v) {
			step = true
		}
	}
	return start && step
}

// isConstN reports whether v is the integer constant n.
func isConstN(v ssa.Value, n int64) bool {
	x, ok := constInt(v)
	return ok && x == n
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// sameLoc reports whether x and y are loads of the same field path from
// the same base value (w.buf and w.buf loaded twice), possibly converted.
func sameLoc(x, y ssa.Value) bool {
	x, y = stripConv(x), stripConv(y)
	if x == y {
		return true
	}
	lx, ok1 := x.(*ssa.UnOp)
	ly, ok2 := y.(*ssa.UnOp)
	if !ok1 || !ok2 || lx.Op != token.MUL || ly.Op != token.MUL {
		return false
	}
	return sameAddr(lx.X, ly.X, 0)
}

func sameAddr(a, b ssa.Value, depth int) bool {
	if a == b {
		return true
	}
	if depth > 6 {
		return false
	}
	fa, ok1 := a.(*ssa.FieldAddr)
	fb, ok2 := b.(*ssa.FieldAddr)
	if ok1 && ok2 {
		return fa.Field == fb.Field && (fa.X == fb.X || sameLoc(fa.X, fb.X) || sameAddr(fa.X, fb.X, depth+1))
	}
	return false
}

func stripConv(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return v
		}
	}
}

func isFreeVar(v ssa.Value) bool { _, ok := v.(*ssa.FreeVar); return ok }

// guardFix wraps a plain Put statement in a capacity check.
func (c *checker) guardFix(p putSite, t types.Type) (analysis.SuggestedFix, bool) {
	if _, ok := p.instr.(*ssa.Call); !ok {
		return analysis.SuggestedFix{}, false
	}
	call := c.callExpr(p.instr.Common().Pos())
	if call == nil || len(call.Args) != 1 {
		return analysis.SuggestedFix{}, false
	}
	file := c.fileOf(call.Pos())
	if file == nil {
		return analysis.SuggestedFix{}, false
	}
	nodes, _ := astutil.PathEnclosingInterval(file, call.Pos(), call.End())
	if len(nodes) < 2 {
		return analysis.SuggestedFix{}, false
	}
	stmt, ok := nodes[1].(*ast.ExprStmt)
	if !ok || stmt.X != call {
		return analysis.SuggestedFix{}, false
	}
	arg := ast.Unparen(call.Args[0])
	if !isPlainRef(arg) {
		return analysis.SuggestedFix{}, false
	}
	var size string
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		size = "cap(" + types.ExprString(u.X) + ")"
	} else if ptr, ok := t.Underlying().(*types.Pointer); ok {
		if _, isSlice := ptr.Elem().Underlying().(*types.Slice); isSlice {
			size = "cap(*" + types.ExprString(arg) + ")"
		} else {
			size = types.ExprString(arg) + ".Cap()"
		}
	} else {
		size = "cap(" + types.ExprString(arg) + ")"
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, c.pass.Fset, stmt); err != nil {
		return analysis.SuggestedFix{}, false
	}
	text := "if " + size + " <= " + maxPooled + " {\n" + buf.String() + "\n}"
	return analysis.SuggestedFix{
		Message:   "put the buffer back only if its capacity is at most 64 KiB",
		TextEdits: []analysis.TextEdit{{Pos: stmt.Pos(), End: stmt.End(), NewText: []byte(text)}},
	}, true
}

// isPlainRef reports whether e is a name, a selector chain or &name: an
// expression that can be repeated without side effects.
func isPlainRef(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isPlainRef(x.X)
	case *ast.UnaryExpr:
		return x.Op == token.AND && isPlainRef(x.X)
	case *ast.StarExpr:
		return isPlainRef(x.X)
	}
	return false
}

func (c *checker) fileOf(pos token.Pos) *ast.File {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

// poolNews returns the name and the New types of the sync.Pool at addr:
// a package-level pool, or a pool field of a struct type of the package
// (s.bufPool.New = f, or s.bufPool = sync.Pool{New: f}) when every New
// stored into that field in the package returns the same types.
func (c *checker) poolNews(addr ssa.Value) (string, []types.Type, bool) {
	name, news, _, ok := c.poolNewsNil(addr)
	return name, news, ok
}

// poolNewsNil is poolNews, also giving the position of a return of nil in
// New, if it has one (token.NoPos if not): Get returns nil then.
func (c *checker) poolNewsNil(addr ssa.Value) (string, []types.Type, token.Pos, bool) {
	if g := globalOf(addr); g != nil {
		news, nilAt, ok := c.newTypesOf(c.hooks[g]["New"])
		return g.Name(), news, nilAt, ok
	}
	if name, vals := localNews(addr); len(vals) > 0 {
		news, nilAt, ok := c.newTypesOf(vals)
		return name, news, nilAt, ok
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", nil, token.NoPos, false
	}
	id := poolID(fa)
	if id == nil {
		return "", nil, token.NoPos, false
	}
	vals := c.fieldPoolNews()[id]
	if len(vals) == 0 {
		return "", nil, token.NoPos, false
	}
	var all []types.Type
	nilAt := token.NoPos
	for _, v := range vals {
		ts, at, ok := c.newTypesOf([]ssa.Value{v})
		if !ok {
			return "", nil, token.NoPos, false
		}
		all = append(all, ts...)
		if nilAt == token.NoPos {
			nilAt = at
		}
	}
	return fieldName(fa), all, nilAt, true
}

// localNews returns the name and the New functions of a sync.Pool that is
// a local variable (pool := sync.Pool{New: f}, or &sync.Pool{...}), seen
// from its function or from a closure that captures it. A pool whose
// address is stored elsewhere or passed on may get another New: then none.
func localNews(addr ssa.Value) (string, []ssa.Value) {
	if fv, ok := addr.(*ssa.FreeVar); ok {
		bs := bindingsOf(fv.Parent(), fv)
		if len(bs) != 1 {
			return "", nil
		}
		addr = bs[0]
	}
	a, ok := addr.(*ssa.Alloc)
	if !ok || !isSyncPoolPtr(a.Type()) {
		return "", nil
	}
	news, ok := storedNews(a, 0)
	if !ok {
		return "", nil
	}
	if a.Comment == "complit" || a.Comment == "" {
		return "this sync.Pool", news // p := &sync.Pool{...}: p has no Alloc
	}
	return a.Comment, news
}

// storedNews returns the values stored into the New field of the local
// sync.Pool a, following a composite literal's temporary copied into it
// (*a = *tmp), and false if a's address is stored somewhere.
func storedNews(a *ssa.Alloc, depth int) ([]ssa.Value, bool) {
	var news []ssa.Value
	for _, ref := range *a.Referrers() {
		switch r := ref.(type) {
		case *ssa.FieldAddr:
			if !isNewField(r) {
				continue
			}
			for _, u := range *r.Referrers() {
				if st, ok := u.(*ssa.Store); ok && st.Addr == r {
					news = append(news, st.Val)
				}
			}
		case *ssa.Store:
			if r.Val == a {
				return nil, false // the address is kept somewhere
			}
			if u, ok := r.Val.(*ssa.UnOp); ok && u.Op == token.MUL && r.Addr == a && depth < 2 {
				if tmp, ok := u.X.(*ssa.Alloc); ok {
					more, ok := storedNews(tmp, depth+1)
					if !ok {
						return nil, false
					}
					news = append(news, more...)
				}
			}
		}
	}
	return news, true
}

// isNewField reports whether fa is the address of a sync.Pool's New field.
func isNewField(fa *ssa.FieldAddr) bool {
	st, ok := derefStruct(fa.X.Type())
	return ok && fa.Field < st.NumFields() && st.Field(fa.Field).Name() == "New"
}

// fieldPoolNews collects, by poolID, the New functions stored into sync.Pool
// fields of the package's struct types; built on first use.
func (c *checker) fieldPoolNews() map[any][]ssa.Value {
	if c.fieldNews != nil {
		return c.fieldNews
	}
	c.fieldNews = map[any][]ssa.Value{}
	for _, fn := range c.funcs {
		// A sync.Pool literal built in a temporary and copied into a field.
		copied := map[ssa.Value]any{}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isSyncPoolPtr(fa.Type()) {
						if u, ok := st.Val.(*ssa.UnOp); ok && u.Op == token.MUL {
							if id := poolID(fa); id != nil {
								copied[u.X] = id
							}
						}
					}
				}
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !isSyncPoolPtr(fa.X.Type()) {
					continue
				}
				if !isNewField(fa) {
					continue
				}
				var id any
				if inner, ok := fa.X.(*ssa.FieldAddr); ok {
					id = poolID(inner) // s.bufPool.New = f
				} else if v, ok := copied[fa.X]; ok {
					id = v // s.bufPool = sync.Pool{New: f}
				}
				if id != nil {
					c.fieldNews[id] = append(c.fieldNews[id], st.Val)
				}
			}
		}
	}
	return c.fieldNews
}

// newTypesOf returns the types that the New functions news return, and the
// position of a return of nil (an empty interface), if there is one.
func (c *checker) newTypesOf(news []ssa.Value) ([]types.Type, token.Pos, bool) {
	if len(news) != 1 {
		return nil, token.NoPos, false
	}
	var fn *ssa.Function
	switch v := news[0].(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn == nil || len(fn.Blocks) == 0 {
		return nil, token.NoPos, false
	}
	var ts []types.Type
	nilAt := token.NoPos
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		switch r := ret.Results[0].(type) {
		case *ssa.MakeInterface:
			if containsTypeParam(r.X.Type()) {
				return nil, token.NoPos, false
			}
			ts = append(ts, r.X.Type())
		default:
			if isNil(r) {
				if nilAt == token.NoPos {
					nilAt = ret.Pos()
				}
				continue
			}
			return nil, token.NoPos, false
		}
	}
	return ts, nilAt, len(ts) > 0
}

// checkGetType reports type assertions on a sync.Pool's Get that can only
// fail, given what New returns.
func (c *checker) checkGetType(g getSite) {
	c.checkNoNew(g)
	if g.prim != syncGet || len(g.args) == 0 {
		return
	}
	name, news, nilAt, ok := c.poolNewsNil(g.args[0])
	if !ok {
		return
	}
	checked := nilChecked(g.call)
	for _, ref := range *g.call.Referrers() {
		ta, ok := ref.(*ssa.TypeAssert)
		if !ok || containsTypeParam(ta.AssertedType) {
			continue
		}
		if !matchesAny(ta.AssertedType, news) {
			c.report(checkTypeMismatch, ta.Pos(), nil,
				"%s.Get() is asserted to %s, but its New returns %s: the assertion fails whenever Get falls back to New",
				name, c.typeString(ta.AssertedType), c.typeString(news[0]))
			continue
		}
		if nilAt.IsValid() && !ta.CommaOk && !checked {
			// sync.Pool: "If New is nil or returns nil, Get returns nil";
			// the assertion of a nil interface panics.
			c.report(checkTypeMismatch, ta.Pos(), nil,
				"%s's New returns nil at line %d (Get then returns nil), and this assertion to %s panics on nil; use the comma-ok form and handle the failure",
				name, c.line(nilAt), c.typeString(ta.AssertedType))
		}
	}
}

// checkNoNew reports assertions without comma-ok on the result of Get,
// called directly or through a wrapper that returns it as it is, of a
// sync.Pool that never gets a New function: Get returns nil when the pool
// is empty, and the assertion panics (jbenet/go-msgio#14).
func (c *checker) checkNoNew(g getSite) {
	var name string
	switch {
	case g.prim == syncGet && len(g.args) > 0:
		n, ok := c.noNew(g.args[0])
		if !ok {
			return
		}
		name = n
	case g.prim == nil:
		callee := g.call.Call.StaticCallee()
		if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != c.pass.Pkg {
			return
		}
		n, ok := c.returnsRawGet(callee)
		if !ok {
			return
		}
		name = n
	default:
		return
	}
	if nilChecked(g.call) {
		return // if v := p.Get(); v != nil { v.(T) }: the nil case is handled
	}
	for _, ref := range *g.call.Referrers() {
		ta, ok := ref.(*ssa.TypeAssert)
		if !ok || ta.CommaOk {
			continue
		}
		c.report(checkTypeMismatch, ta.Pos(), nil,
			"%s has no New, so Get returns nil when the pool is empty and this assertion to %s panics; set New, or use the comma-ok form and allocate",
			name, c.typeString(ta.AssertedType))
	}
}

// nilChecked reports whether v is compared with nil.
func nilChecked(v ssa.Value) bool {
	for _, ref := range *v.Referrers() {
		if bo, ok := ref.(*ssa.BinOp); ok && isNilCheckOf(bo, v) {
			return true
		}
	}
	return false
}

// returnsRawGet reports whether every return of fn returns the result of a
// sync.Pool's Get as it is, from a pool without New.
func (c *checker) returnsRawGet(fn *ssa.Function) (string, bool) {
	_, gets := c.sites(fn)
	name, found := "", false
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) != 1 {
			return "", false
		}
		r := stripConv(ret.Results[0])
		if ci, ok := r.(*ssa.ChangeInterface); ok {
			r = ci.X
		}
		match := false
		for _, g := range gets {
			if g.call == r && g.prim == syncGet && len(g.args) > 0 {
				if n, ok := c.noNew(g.args[0]); ok {
					name, match = n, true
				}
			}
		}
		if !match {
			return "", false
		}
		found = true
	}
	return name, found
}

// noNew reports whether the sync.Pool at addr never gets a New function:
// it is an unexported package-level variable or unexported field (or an
// array of pools in one), and no code of the package assigns its New or
// copies a whole pool into it. It returns the pool's name.
func (c *checker) noNew(addr ssa.Value) (string, bool) {
	base := stripIndex(addr)
	switch base.(type) {
	case *ssa.UnOp, *ssa.Alloc, *ssa.FreeVar:
		// var p = &sync.Pool{...}: its New is set in the literal; a local
		// pool's New, in its function (checkNewNil follows it there).
		return "", false
	}
	id := poolID(base)
	if id == nil {
		return "", false
	}
	var name string
	switch x := base.(type) {
	case *ssa.Global:
		if x.Object() == nil || x.Object().Exported() {
			return "", false
		}
		name = x.Name()
	case *ssa.FieldAddr:
		st, ok := derefStruct(x.X.Type())
		if !ok || x.Field >= st.NumFields() || st.Field(x.Field).Exported() {
			return "", false
		}
		name = "field " + st.Field(x.Field).Name()
	}
	if c.withNew == nil {
		c.withNew = map[any]bool{}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					st, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					target := st.Addr
					if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isSyncPoolPtr(fa.X.Type()) {
						target = fa.X // p.New = f, or any other field: count it
					} else if !holdsSyncPool(derefType(st.Addr.Type())) {
						continue
					}
					target = stripIndex(target)
					if _, tmp := target.(*ssa.Alloc); tmp {
						continue // a composite literal's temporary, copied whole where it goes
					}
					// A pool reached another way (a parameter, a map
					// value) may be any pool: then trust none to lack New.
					c.withNew[poolID(target)] = true
				}
			}
		}
	}
	if c.withNew[id] || c.withNew[nil] {
		return "", false
	}
	return name, true
}

// stripIndex returns the array that addr indexes, if it is an element
// address of an array (pools [32]sync.Pool), or addr.
func stripIndex(addr ssa.Value) ssa.Value {
	for {
		ia, ok := addr.(*ssa.IndexAddr)
		if !ok {
			return addr
		}
		if _, isPtr := ia.X.Type().Underlying().(*types.Pointer); !isPtr {
			return addr // a slice element: memory of unknown origin
		}
		addr = ia.X
	}
}

// isSyncPoolPtr reports whether t is *sync.Pool.
func isSyncPoolPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isNamed(p.Elem(), "sync", "Pool")
}

// holdsSyncPool reports whether t is sync.Pool or an array of them.
func holdsSyncPool(t types.Type) bool {
	if a, ok := t.Underlying().(*types.Array); ok {
		return holdsSyncPool(a.Elem())
	}
	return isNamed(t, "sync", "Pool")
}

// isNamed reports whether t is the named type path.name.
func isNamed(t types.Type, path, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// checkPutType reports values put into a sync.Pool whose type differs from
// every type its New returns.
func (c *checker) checkPutType(fn *ssa.Function, p putSite) {
	if p.prim != syncPut {
		return
	}
	c.checkPutOther(fn, p)
	c.checkPutDynType(p)
	mi, ok := p.arg.(*ssa.MakeInterface)
	if !ok || containsTypeParam(mi.X.Type()) {
		return
	}
	name, news, ok := c.poolNews(p.args[0])
	if !ok {
		c.checkPutAsserted(p, mi)
		return
	}
	for _, t := range news {
		if types.Identical(t, mi.X.Type()) {
			return
		}
	}
	c.report(checkTypeMismatch, p.instr.Pos(), nil,
		"%s of type %s is put into %s, whose New returns %s: a later Get's type assertion fails on it",
		c.objName(&p), c.typeString(mi.X.Type()), name, c.typeString(news[0]))
	c.reportFailingGets(p, mi.X.Type())
}

// reportFailingGets reports, after a Put of type put that the pool's other
// users do not expect, each Get of the same pool whose type assertion (not
// the comma-ok form) names another type: the assertion that panics when
// that Get returns the wrong object (goakt 15491a6's mailboxes, where the
// fix is at the Put but the panic at these Gets).
func (c *checker) reportFailingGets(p putSite, put types.Type) {
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	for _, pg := range c.poolGets(id) {
		for _, r := range refsOf(pg.g.call) {
			ta, ok := r.(*ssa.TypeAssert)
			if !ok || ta.CommaOk || types.IsInterface(ta.AssertedType) || types.Identical(ta.AssertedType, put) {
				continue
			}
			at := fmt.Sprintf("line %d", c.line(p.instr.Pos()))
			if pp, tp := c.pass.Fset.Position(p.instr.Pos()), c.pass.Fset.Position(ta.Pos()); pp.Filename != tp.Filename {
				at = fmt.Sprintf("%s:%d", filepath.Base(pp.Filename), pp.Line)
			}
			c.report(checkTypeMismatch, ta.Pos(), nil,
				"this Get's result is asserted to %s, but the Put at %s puts a %s into the same pool: the assertion panics when the Get returns that object",
				c.typeString(ta.AssertedType), at, c.typeString(put))
		}
	}
}

// checkPutAsserted reports, for a pool without a New the package sets, a
// Put of a type that no Get of the pool asserts to when the Gets assert
// to concrete types: the next such Get panics (anacrolix/torrent#205:
// Put(&pi) of a *[]int while the Get asserts []int).
func (c *checker) checkPutAsserted(p putSite, mi *ssa.MakeInterface) {
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	var asserted []types.Type
	for _, pg := range c.poolGets(id) {
		refs := pg.g.call.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			ta, ok := r.(*ssa.TypeAssert)
			if !ok || ta.CommaOk {
				continue // v, ok := p.Get().(T) takes another type for a miss
			}
			if types.IsInterface(ta.AssertedType) || containsTypeParam(ta.AssertedType) {
				return // an interface or a type parameter: any of many types
			}
			asserted = append(asserted, ta.AssertedType)
		}
	}
	if len(asserted) == 0 {
		return
	}
	for _, t := range asserted {
		if types.Identical(t, mi.X.Type()) {
			return
		}
	}
	c.report(checkTypeMismatch, p.instr.Pos(), nil,
		"%s of type %s is put into a pool whose Gets assert %s: the next of them to get it panics",
		c.objName(&p), c.typeString(mi.X.Type()), c.typeString(asserted[0]))
	c.reportFailingGets(p, mi.X.Type())
}

// checkPutOther reports a Put of an interface value that did not come
// from the pool into a pool the same function got an object from and
// asserted to a concrete type: it puts the wrong variable (the caller's
// source reader instead of the pooled reader, yarpc/yarpc-go#2426), and a
// later Get's assertion fails on it.
func (c *checker) checkPutOther(fn *ssa.Function, p putSite) {
	v := p.arg
	if ci, ok := v.(*ssa.ChangeInterface); ok {
		v = ci.X
	}
	if !types.IsInterface(v.Type()) || isEmptyInterface(v.Type()) || len(p.args) == 0 {
		return
	}
	id := poolID(p.args[0])
	if id == nil {
		return
	}
	_, gets := c.sites(fn)
	for _, g := range gets {
		if g.prim != syncGet || len(g.args) == 0 || poolID(g.args[0]) != id {
			continue
		}
		t := assertedType(g.call)
		if t == nil || types.IsInterface(t) {
			continue
		}
		if c.flowsFrom(v, g.call) {
			return
		}
		c.report(checkTypeMismatch, p.instr.Pos(), nil,
			"%s (%s) is put into the pool that line %d takes a %s from, but it is not that object: a later Get's type assertion fails on it; put the object you got",
			c.objName(&p), c.typeString(v.Type()), c.line(g.call.Pos()), c.typeString(t))
		return
	}
}

// assertedType returns the type a Get's result is asserted to (the last
// assertion's, if there are several), or nil.
func assertedType(get *ssa.Call) types.Type {
	var t types.Type
	if refs := get.Referrers(); refs != nil {
		for _, r := range *refs {
			if ta, ok := r.(*ssa.TypeAssert); ok {
				t = ta.AssertedType
			}
		}
	}
	return t
}

// isEmptyInterface reports whether t is any.
func isEmptyInterface(t types.Type) bool {
	it, ok := t.Underlying().(*types.Interface)
	return ok && it.NumMethods() == 0
}

// matchesAny reports whether a value of one of the types in news can satisfy
// an assertion to t.
func matchesAny(t types.Type, news []types.Type) bool {
	iface, isIface := t.Underlying().(*types.Interface)
	for _, n := range news {
		if isIface && types.Implements(n, iface) || types.Identical(n, t) {
			return true
		}
	}
	return false
}

func (c *checker) typeString(t types.Type) string {
	return types.TypeString(t, types.RelativeTo(c.pass.Pkg))
}

func containsTypeParam(t types.Type) bool {
	found := false
	var visit func(t types.Type)
	seen := map[types.Type]bool{}
	visit = func(t types.Type) {
		if found || seen[t] {
			return
		}
		seen[t] = true
		switch u := t.(type) {
		case *types.TypeParam:
			found = true
		case *types.Pointer:
			visit(u.Elem())
		case *types.Slice:
			visit(u.Elem())
		case *types.Array:
			visit(u.Elem())
		case *types.Map:
			visit(u.Key())
			visit(u.Elem())
		case *types.Chan:
			visit(u.Elem())
		case *types.Named:
			for i := 0; i < u.TypeArgs().Len(); i++ {
				visit(u.TypeArgs().At(i))
			}
		case *types.Alias:
			visit(types.Unalias(u))
		}
	}
	visit(t)
	return found
}

func isNil(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// line returns the line number of pos.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

// usePos is where a use after the Put at put is reported: at the use, or,
// when the used value is a slice of the object's memory read out of a
// field or element after the Put on an earlier line (nbuf :=
// mb.cache.buf[n:]; ...; append(buf, nbuf...)), at that read, the first
// place the code takes the stale reference.
func (c *checker) usePos(t *tracker, p *path, use, put ssa.Instruction) token.Pos {
	at := c.posOf(use, put)
	var buf [8]*ssa.Value
	for _, op := range use.Operands(buf[:0]) {
		if *op == nil || t.class(p, *op) == notAlias {
			continue
		}
		v := *op
		for i := 0; i < 8; i++ {
			if s, ok := v.(*ssa.Slice); ok {
				v = s.X
				continue
			}
			break
		}
		ld, ok := v.(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || v == *op || !after(put, ld) {
			continue
		}
		if lp := c.posOf(ld, put); lp.IsValid() && c.line(lp) < c.line(at) {
			return lp
		}
	}
	return at
}

// after reports whether b runs after a on some path and not before it: later
// in a's block, or in a block reached from a's that does not lead to a.
func after(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return a != b && precedes(a, b)
	}
	return mayPrecede(a, b) && !mayPrecede(b, a)
}

// posOf returns a position for instr: its own, or that of a neighbour on
// the same line, or fallback.
func (c *checker) posOf(instr ssa.Instruction, fallback ssa.Instruction) token.Pos {
	if instr.Pos().IsValid() {
		return instr.Pos()
	}
	// An implicit load (prod := ps[0], x := h.buf) has no position of
	// its own; the index or selector expression it reads has.
	if ld, ok := instr.(*ssa.UnOp); ok && ld.Op == token.MUL {
		switch ld.X.(type) {
		case *ssa.IndexAddr, *ssa.FieldAddr:
			if at := ld.X.Pos(); at.IsValid() {
				return at
			}
		}
	}
	instrs := instr.Block().Instrs
	for i, x := range instrs {
		if x != instr {
			continue
		}
		for j := i - 1; j >= 0; j-- {
			if instrs[j].Pos().IsValid() {
				return instrs[j].Pos()
			}
		}
		for j := i + 1; j < len(instrs); j++ {
			if instrs[j].Pos().IsValid() {
				return instrs[j].Pos()
			}
		}
	}
	if ret, ok := instr.(*ssa.Return); ok {
		if syn := ret.Parent().Syntax(); syn != nil {
			return syn.End() - 1
		}
	}
	return fallback.Pos()
}

// objName returns the source text naming the object a put site puts.
func (c *checker) objName(p *putSite) string {
	if p.key.cell {
		switch v := p.key.v.(type) {
		case *ssa.Alloc:
			if v.Comment != "" {
				return v.Comment
			}
		case *ssa.FreeVar:
			return v.Name()
		case *ssa.Global:
			return v.Name()
		}
	}
	if call := c.callExpr(p.instr.Common().Pos()); call != nil && p.param >= 0 {
		idx := p.param
		// p.param indexes the arguments receiver first; the syntax has
		// the receiver before the dot (x.Put(b)), in a method value
		// (put := x.Put; put(b)) or among the arguments (method expression).
		if c.hasRecvOutsideArgs(p, call) {
			if idx == 0 {
				if x, ok := selectorBase(call.Fun); ok {
					return x
				}
				return "the receiver"
			}
			idx--
		}
		if idx >= 0 && idx < len(call.Args) {
			return types.ExprString(call.Args[idx])
		}
	}
	return "the object"
}

// hasRecvOutsideArgs reports whether the callee of the put site p is a
// method whose receiver is not among the syntactic arguments of call.
func (c *checker) hasRecvOutsideArgs(p *putSite, call *ast.CallExpr) bool {
	com := p.instr.Common()
	if com.IsInvoke() {
		// An interface method's arguments do not hold the receiver; a
		// put of the receiver itself comes from assertedPuts.
		return p.asserted
	}
	if com.Signature().Recv() != nil {
		return true
	}
	if isBoundWrapper(com.StaticCallee()) {
		return true
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := c.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodVal {
			return true
		}
	}
	return false
}

// fitAndGrow reports whether every comparison of the size that ci computes
// is with a value n that fn then makes the object at (if cap(*bp) < n {
// *bp = make([]byte, n) }): a test of whether the buffer fits, after which
// it is as large as the largest n, not a bound
// (QuilibriumNetwork/monorepo#399).
func fitAndGrow(fn *ssa.Function, ci ssa.CallInstruction, al map[ssa.Value]bool) bool {
	call, ok := ci.(*ssa.Call)
	return ok && sizeComparedOnlyWith(call, func(n ssa.Value) bool { return makesAt(fn, stripConv(n), al) })
}

// makesAt reports whether fn stores into the object (one of al) a slice
// made at length or capacity n.
func makesAt(fn *ssa.Function, n ssa.Value, al map[ssa.Value]bool) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !al[st.Addr] {
				continue
			}
			if mk, ok := st.Val.(*ssa.MakeSlice); ok && (stripConv(mk.Len) == n || stripConv(mk.Cap) == n) {
				return true
			}
			// *bp = append((*bp)[:cap(*bp)], make([]byte, n-cap(*bp))...):
			// extended to n (whyrusleeping/cbor-gen#95).
			if ap, ok := st.Val.(*ssa.Call); ok && isBuiltin(&ap.Call, "append") && len(ap.Call.Args) == 2 {
				if mk, ok := ap.Call.Args[1].(*ssa.MakeSlice); ok {
					l := stripConv(mk.Len)
					if d, ok := l.(*ssa.BinOp); ok && d.Op == token.SUB {
						l = stripConv(d.X)
					}
					if l == n {
						return true
					}
				}
			}
		}
	}
	return false
}
