package poolvet

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"regexp"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Paths of the packages whose pools are recognised by name.
const (
	poolPath     = "github.com/poolkit/pool"
	bytepoolPath = "github.com/poolkit/pool/bytepool"
)

type role int

const (
	roleGet role = iota + 1
	rolePut
)

type poolKind int

const (
	kindSync    poolKind = iota + 1 // sync.Pool: stores any, no hooks
	kindTyped                       // pool.Pool[T]: typed, Reset and Keep hooks
	kindByte                        // bytepool: size classes with a byte budget
	kindWrapper                     // a function that calls one of the above
)

// A primitive is a pool operation recognised by its package and name.
type primitive struct {
	role  role
	kind  poolKind
	param int // for puts: index of the object among the SSA call arguments
}

var (
	syncGet     = &primitive{roleGet, kindSync, 0}
	syncPut     = &primitive{rolePut, kindSync, 1}
	typedGet    = &primitive{roleGet, kindTyped, 0}
	typedPut    = &primitive{rolePut, kindTyped, 1}
	byteGet     = &primitive{roleGet, kindByte, 0}
	bytePut     = &primitive{rolePut, kindByte, 0}
	byteMethPut = &primitive{rolePut, kindByte, 1}
	byteFree    = &primitive{rolePut, kindByte, 0}
)

// primitiveOf returns the pool operation that fn is, or nil.
func primitiveOf(fn *types.Func) *primitive {
	if fn.Pkg() == nil {
		return nil
	}
	path := fn.Pkg().Path()
	if path != "sync" && path != poolPath && path != bytepoolPath {
		return nil
	}
	recv := recvName(fn)
	switch path + "." + recv + "." + fn.Name() {
	case "sync.Pool.Get":
		return syncGet
	case "sync.Pool.Put":
		return syncPut
	case poolPath + ".Pool.Get":
		return typedGet
	case poolPath + ".Pool.Put":
		return typedPut
	case bytepoolPath + "..Get", bytepoolPath + "..Zeroed", bytepoolPath + "..GetBuffer",
		bytepoolPath + ".Pool.Get", bytepoolPath + ".Pool.GetBuffer":
		return byteGet
	case bytepoolPath + "..Put":
		return bytePut
	case bytepoolPath + ".Pool.Put":
		return byteMethPut
	case bytepoolPath + ".Buffer.Free":
		return byteFree
	}
	return nil
}

// recvName returns the name of the receiver's named type of a method, or "".
func recvName(fn *types.Func) string {
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return ""
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		return n.Origin().Obj().Name()
	}
	return ""
}

// wrapperFact is exported for functions and methods that act as a Put or a
// Get of a pool.
type wrapperFact struct {
	PutParams   []int // indexes of the parameters put into a pool (receiver first)
	ResetParams []int // the subset of PutParams reset before being put
	CondParams  []int // the subset of PutParams that some path does not put
	FieldParams []int // the subset of PutParams of which only a field is put (a Close method)
	Gets        bool  // result 0 may be an object taken from a pool
	GetResets   bool  // that object is reset (or the pool resets it) before return
	Aliases     bool  // result 0 shares memory with parameter 0 (like Bytes)
	HandsOff    []int // parameters passed on to a user that outlives the call (a goroutine, a channel, net/http's transport)
}

func (*wrapperFact) AFact() {}

func (f *wrapperFact) String() string {
	var parts []string
	for _, p := range f.PutParams {
		s := fmt.Sprintf("put(%d)", p)
		for _, r := range f.ResetParams {
			if r == p {
				s += "+reset"
			}
		}
		for _, r := range f.CondParams {
			if r == p {
				s += "?"
			}
		}
		for _, r := range f.FieldParams {
			if r == p {
				s += ".field"
			}
		}
		parts = append(parts, s)
	}
	if f.Gets {
		s := "get"
		if f.GetResets {
			s += "+reset"
		}
		parts = append(parts, s)
	}
	if f.Aliases {
		parts = append(parts, "alias")
	}
	for _, p := range f.HandsOff {
		parts = append(parts, fmt.Sprintf("handoff(%d)", p))
	}
	return "pool:" + strings.Join(parts, ",")
}

// A freePut describes a free variable that a function literal puts.
type freePut struct {
	resets bool
	cell   bool // the variable is captured by reference (the usual case)
	cond   bool // some path through the function does not put it
	// A conditional Put that happens on every path where the boolean
	// free variable onFree (an index, -1 for none) is onWhen:
	// defer func() { if done { put(c) } }().
	onFree int
	onWhen bool
	never  bool // and on no path where it is !onWhen
	// field: only a field of the captured pointer is put, and left in
	// place: defer func() { release(w.vbw) }() in a Close method.
	field bool
	reuse bool // cond, but through calls whose Put is paramPut.reuse on every path
}

// A paramPut describes a parameter that a function puts.
type paramPut struct {
	resets bool // it is reset before the Put
	cond   bool // some path through the function does not put it
	field  bool // only a field of it is put: calling the function twice puts that field twice
	// outcome: for a cond put, no branch of the function looks at its
	// parameters' values or fields: whether it puts depends only on what
	// its own calls return (a write error), which the caller cannot know
	// in advance (xuender/xun#137). A Put under if !a.reuse is not one.
	outcome bool
	// A conditional Put that happens on every path where the boolean
	// parameter onParam (an index, -1 for none) is onWhen: a call that
	// passes that constant puts it (vllm-project/aibrix#2440).
	onParam int
	onWhen  bool
	never   bool // and on no path where it is !onWhen
	// For a cond put of a field of a method's receiver: 1 + the index of
	// a bool field of the receiver, such as closed, that alone decides:
	// the method puts on every path where the field is false (0: none).
	// setsGuard says whether the method stores into that field; if not,
	// a second such method called after it puts again (grafana/loki#15776:
	// Commit puts unless closed but leaves closed false, then Discard).
	guard     int
	setsGuard bool
	// release: the Put happens when a reference count of the parameter,
	// decremented on every path, reaches zero (m.Free() in mangos): one
	// call drops one reference, so two calls on one reference are a double
	// Put, unless the caller takes another reference (see refTaken).
	release bool
	// synced: every path to the Put (to the return, for a deferred Put)
	// passes a receive, a Wait or a lock first (a wait(req) that receives
	// <-req.done before its deferred Put): a hand-off made before the
	// call is ordered before the Put (tikv/pd#660's fix).
	synced bool
	// reuse: a cond Put of the parameter itself that only a bool field of
	// it decides (if e.closed { return }; e.closed = true; Put(e)), where
	// the package clears that field when the object is reused (Reset sets
	// closed = false). The flag does not stop a second call: between the
	// two, another user may Get the object and clear it (m3db/m3's
	// encoders and blocks). Also a wrapper that puts through such calls on
	// every path. Only doubleput treats it as a Put.
	reuse bool
}

// A summary says how a function acts on pools, as seen by its callers.
type summary struct {
	putParams map[int]paramPut // by parameter index, receiver first
	putFree   map[int]freePut
	gets      bool
	getResets bool
	aliases   bool // result 0 shares memory with parameter 0 (a Bytes-like method)
	// aliasField is the field of parameter 0 whose memory a fresh struct
	// returned as result 0 holds (&Segment{inv: s.inv}), or -1.
	aliasField int
	// handsOff holds the parameters that the function passes on to a user
	// that may outlive the call, with no wait before it returns.
	handsOff map[int]bool
	// onSuccess holds the parameters of handsOff that fn hands off only on
	// paths that return a nil error as the last result: a caller that puts
	// the object back when the error is not nil does not race with the
	// other user (uber/tchannel-go#422's relay). In-package only.
	onSuccess map[int]bool
	// keeps holds the parameters that a fresh struct returned as result 0
	// holds as they are (a constructor: return &Err{body: body}), or that
	// a method returns a view of (viewParams): the result shares their
	// memory (x5iu/defc#11). In-package only.
	keeps map[int]bool
	// cached names the field of the receiver that a getter (gets) returns
	// as it is on some path instead of a pooled object (a cached map,
	// grafana/loki#11607), or "".
	cached string
	// retainsIn holds the parameters (not the receiver) that a method
	// stores, or an alias of, into memory its receiver reaches
	// (r.Labels = append(r.Labels, {Name: unsafe string over data})): after
	// the call the receiver holds them (cortexproject/cortex#6808).
	// In-package only.
	retainsIn map[int]bool
	// fieldPuts holds, by parameter, the field paths ("3.0" for
	// p.group.presence) at which the function puts an object, each with
	// whether it leaves the field holding the object (true) or stores
	// into the field (false). In-package only.
	fieldPuts map[int]map[string]bool
	// sureFieldPuts holds those of fieldPuts that the function puts on
	// every path (a nil object aside): a Release or Close, not a helper
	// that clears a cache on a rare path. In-package only.
	sureFieldPuts map[int]map[string]bool
	// cleanup maps a result that is a closure putting the object to the
	// result that shares its memory (return buf.Bytes(), cleanup, nil).
	// In-package only.
	cleanup map[int]int
	// putsInto holds the parameters into whose fields the function
	// stores memory of an object it puts before returning. In-package
	// only.
	putsInto map[int]bool
	// storesAt holds, by parameter (-1: result 0), the field paths of
	// other parameters that the function stores it into (recordStoresAt).
	// In-package only.
	storesAt map[int]map[heldAt]bool
	// views holds the field paths of the receiver whose memory result 0
	// shares (recordViews). In-package only.
	views map[string]bool
	// keepsAt holds, by parameter, where the function keeps that slice
	// parameter in a map it did not make (recordKeepsAt). In-package
	// only.
	keepsAt map[int]token.Pos
	// tupleViews holds the results (after the first) that share memory
	// with result 0 on every return that gives a non-nil result 0
	// (return bufp, (*bufp)[:n], nil). In-package only.
	tupleViews map[int]bool
	// grows is the parameter after the first that result 0 is, grown
	// by appends (decode(rec, dst[:0]) returning dst), or 0 for none.
	// In-package only.
	grows int
}

func (s *summary) empty() bool {
	return s == nil || s.cached == "" && len(s.putParams) == 0 && len(s.putFree) == 0 && !s.gets && !s.aliases && len(s.handsOff) == 0 && len(s.keeps) == 0 && len(s.retainsIn) == 0 && len(s.fieldPuts) == 0 && len(s.cleanup) == 0 && len(s.putsInto) == 0 && len(s.storesAt) == 0 && len(s.views) == 0 && len(s.keepsAt) == 0 && len(s.tupleViews) == 0 && s.grows == 0
}

func (s *summary) equal(t *summary) bool {
	if s.empty() || t.empty() {
		return s.empty() == t.empty()
	}
	if s.gets != t.gets || s.getResets != t.getResets || s.aliases != t.aliases || s.aliasField != t.aliasField || s.cached != t.cached ||
		len(s.putParams) != len(t.putParams) || len(s.putFree) != len(t.putFree) || len(s.handsOff) != len(t.handsOff) {
		return false
	}
	if !sameSet(s.handsOff, t.handsOff) || !sameSet(s.onSuccess, t.onSuccess) || !sameSet(s.keeps, t.keeps) || !sameSet(s.retainsIn, t.retainsIn) || !sameFieldPuts(s.fieldPuts, t.fieldPuts) || !sameFieldPuts(s.sureFieldPuts, t.sureFieldPuts) || !maps.Equal(s.cleanup, t.cleanup) || !sameSet(s.putsInto, t.putsInto) || !sameStoresAt(s.storesAt, t.storesAt) || !sameSet(s.views, t.views) || !maps.Equal(s.keepsAt, t.keepsAt) || !sameSet(s.tupleViews, t.tupleViews) || s.grows != t.grows {
		return false
	}
	for k, v := range s.putParams {
		if w, ok := t.putParams[k]; !ok || w != v {
			return false
		}
	}
	for k, v := range s.putFree {
		if w, ok := t.putFree[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// sameSet reports whether two sets are equal.
func sameSet[K comparable](a, b map[K]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// objKey identifies a pooled object within one function: either an SSA
// value, or (cell) whatever is stored in a captured variable or global.
type objKey struct {
	v    ssa.Value
	cell bool
}

// rootOf strips conversions that do not change the object and turns loads
// of captured variables and globals into cells.
func rootOf(v ssa.Value) objKey {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.UnOp:
			if x.Op == token.MUL {
				switch x.X.(type) {
				case *ssa.Alloc, *ssa.FreeVar, *ssa.Global:
					return objKey{x.X, true}
				}
			}
			return objKey{v, false}
		default:
			return objKey{v, false}
		}
	}
}

// A callee says what a called function does with pools.
type callee struct {
	prim *primitive
	sum  *summary
}

// invokeCallee summarizes a call of a method of an interface type of the
// package from the package's methods that implement it: a parameter is put
// when every one of them puts it, conditionally when one does so
// (uber/tchannel-go's FramePool.Release, #420). An interface with no
// implementation in the package says nothing.
func (c *checker) invokeCallee(com *ssa.CallCommon) (callee, bool) {
	n, ok := types.Unalias(com.Value.Type()).(*types.Named)
	if !ok || n.Obj().Pkg() != c.pass.Pkg {
		return callee{}, false
	}
	var s *summary
	for _, fn := range c.implsOf(n, com.Method.Name()) {
		fs := c.sums[fn]
		if fs == nil {
			return callee{}, false
		}
		// The method's parameters count its receiver first; the call's
		// arguments do not hold it.
		ps := map[int]paramPut{}
		for i, pp := range fs.putParams {
			if i == 0 {
				continue
			}
			pp.onParam--
			if pp.onParam < 0 {
				pp.onParam = -1
			}
			ps[i-1] = pp
		}
		if s == nil {
			s = &summary{putParams: ps}
			continue
		}
		for i, pp := range s.putParams {
			q, ok := ps[i]
			if !ok {
				delete(s.putParams, i)
				continue
			}
			if q != pp {
				pp.cond = pp.cond || q.cond
				pp.resets = pp.resets && q.resets
				pp.field = pp.field || q.field
				pp.onParam = -1
				s.putParams[i] = pp
			}
		}
	}
	if s == nil || len(s.putParams) == 0 {
		return callee{}, false
	}
	return callee{sum: s}, true
}

// implsOf returns the methods named name of the package's types that
// implement the interface type n; built on first use.
func (c *checker) implsOf(n *types.Named, name string) []*ssa.Function {
	k := implKey{n.Obj(), name}
	if fns, ok := c.impls[k]; ok {
		return fns
	}
	var fns []*ssa.Function
	iface, ok := n.Underlying().(*types.Interface)
	for _, fn := range c.funcs {
		if !ok {
			break // not an interface: no implementations
		}
		recv := fn.Signature.Recv()
		if recv == nil || fn.Name() != name || fn.Parent() != nil {
			continue
		}
		t := recv.Type()
		if types.Implements(t, iface) || !isPointer(t) && types.Implements(types.NewPointer(t), iface) {
			fns = append(fns, fn)
		}
	}
	if c.impls == nil {
		c.impls = map[implKey][]*ssa.Function{}
	}
	c.impls[k] = fns
	return fns
}

// An implKey names a method of an interface type.
type implKey struct {
	iface *types.TypeName
	name  string
}

// fieldCallee summarizes a call through a func-typed struct field
// (app.toString(b)) from the functions the package stores into that
// field: as the one function when there is one; otherwise its result
// shares memory with an argument when that of one of them does (a copy
// in one configuration, an unsafe view in the other: gofiber/fiber#4374).
func (c *checker) fieldCallee(com *ssa.CallCommon) (callee, bool) {
	if com.IsInvoke() {
		return callee{}, false
	}
	cands := c.fieldFuncs(com.Value)
	if len(cands) == 1 {
		if s := c.sums[cands[0]]; s != nil {
			return callee{sum: s}, true
		}
		return callee{}, false
	}
	var m *summary
	for _, f := range cands {
		s := c.sums[f]
		if s == nil {
			continue
		}
		if s.aliases || len(s.keeps) > 0 {
			if m == nil {
				m = &summary{aliasField: -1}
			}
			m.aliases = m.aliases || s.aliases && s.aliasField < 0
			for i := range s.keeps {
				if m.keeps == nil {
					m.keeps = map[int]bool{}
				}
				m.keeps[i] = true
			}
		}
	}
	if m == nil {
		return callee{}, false
	}
	return callee{sum: m}, true
}

// fieldFuncs returns the functions (declared or literals, not method
// values) that the package stores into the func-typed field that v is a
// load of, or nil.
func (c *checker) fieldFuncs(v ssa.Value) []*ssa.Function {
	ld, ok := v.(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	fa, ok := ld.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ref, ok := fieldRefOf(fa)
	if !ok {
		return nil
	}
	if c.funcFields == nil {
		c.funcFields = map[fieldRef][]*ssa.Function{}
		c.eachFieldStore(func(_ *ssa.Function, st *ssa.Store, sfa *ssa.FieldAddr) {
			var f *ssa.Function
			switch x := st.Val.(type) {
			case *ssa.Function:
				f = x
			case *ssa.MakeClosure:
				f, _ = x.Fn.(*ssa.Function)
				if f != nil && isBoundWrapper(f) {
					f = nil
				}
			}
			k, ok := fieldRefOf(sfa)
			if f == nil || !ok {
				return
			}
			c.funcFields[k] = append(c.funcFields[k], f)
		})
	}
	return c.funcFields[ref]
}

// callArgs returns the arguments of a call as the called function or
// method sees them, receiver first. They are com.Args, except for a call of
// a method value (get := p.Get; get()): SSA calls a bound method wrapper,
// whose receiver is the closure's binding, not an argument.
func callArgs(com *ssa.CallCommon) []ssa.Value {
	if mc, ok := com.Value.(*ssa.MakeClosure); ok && isBoundWrapper(com.StaticCallee()) && len(mc.Bindings) == 1 {
		args := make([]ssa.Value, 0, len(com.Args)+1)
		return append(append(args, mc.Bindings[0]), com.Args...)
	}
	return com.Args
}

// isBoundWrapper reports whether fn is the synthetic wrapper of a method value.
func isBoundWrapper(fn *ssa.Function) bool {
	return fn != nil && len(fn.FreeVars) == 1 && strings.HasPrefix(fn.Synthetic, "bound method wrapper")
}

// calleeOf returns what the static callee of a call does, or ok=false.
// Method values and method expressions count as calls of their method:
// use callArgs for the arguments.
func (c *checker) calleeOf(com *ssa.CallCommon) (callee, bool) {
	fn := com.StaticCallee()
	if fn == nil {
		if com.IsInvoke() {
			return c.invokeCallee(com)
		}
		return c.fieldCallee(com)
	}
	if isBoundWrapper(fn) {
		if _, ok := com.Value.(*ssa.MakeClosure); !ok {
			return callee{}, false
		}
	}
	obj, _ := fn.Object().(*types.Func)
	if obj != nil {
		obj = obj.Origin()
		if p := primitiveOf(obj); p != nil {
			return callee{prim: p}, true
		}
	}
	if s := c.sums[fn.Origin()]; s != nil {
		return callee{sum: s}, true
	}
	if s := c.sums[fn]; s != nil {
		return callee{sum: s}, true
	}
	if fn.Synthetic != "" && obj != nil && obj.Pkg() == c.pass.Pkg {
		// A thunk or bound wrapper of a method of this package.
		if s := c.byObj[obj]; s != nil {
			return callee{sum: s}, true
		}
	}
	if obj == nil {
		return callee{}, false
	}
	if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
		var f wrapperFact
		if c.pass.ImportObjectFact(obj, &f) {
			s := &summary{gets: f.Gets, getResets: f.GetResets, aliases: f.Aliases}
			for _, p := range f.HandsOff {
				if s.handsOff == nil {
					s.handsOff = map[int]bool{}
				}
				s.handsOff[p] = true
			}
			if len(f.PutParams) > 0 {
				s.putParams = map[int]paramPut{}
				for _, p := range f.PutParams {
					s.putParams[p] = paramPut{}
				}
				for _, p := range f.ResetParams {
					pp := s.putParams[p]
					pp.resets = true
					s.putParams[p] = pp
				}
				for _, p := range f.CondParams {
					pp := s.putParams[p]
					pp.cond = true
					s.putParams[p] = pp
				}
				for _, p := range f.FieldParams {
					pp := s.putParams[p]
					pp.field = true
					s.putParams[p] = pp
				}
			}
			return callee{sum: s}, true
		}
	}
	return callee{}, false
}

// A putSite is one place where an object goes back to a pool.
type putSite struct {
	instr    ssa.CallInstruction // *ssa.Call or *ssa.Defer
	args     []ssa.Value         // callArgs of the call: receiver first
	key      objKey
	arg      ssa.Value // the argument as passed (before rootOf)
	prim     *primitive
	deferred bool
	resets   bool // the callee resets the object before putting it
	cond     bool // the callee may return without putting it
	outcome  bool // cond, on what the callee's own calls return (paramPut.outcome)
	field    bool // the callee puts a field of arg, not arg (a Close method)
	// guard and setsGuard: paramPut's, for a cond put of a field.
	guard     int
	setsGuard bool
	release   bool // paramPut.release
	reuse     bool // paramPut.reuse (freePut.reuse)
	// asserted: the key is an interface value whose dynamic value, as
	// asserted to a type of the package, the call puts (assertedPuts).
	asserted bool
	param    int // index of arg among the call's arguments, or -1 (closure binding)
	// For a cond put: it puts on every path where the boolean condOn (a
	// parameter or free variable of the caller) is condWhen.
	condOn    ssa.Value
	condWhen  bool
	condNever bool // and it puts on no path where condOn is !condWhen
	synced    bool // paramPut.synced
}

// A getSite is a call that returns an object from a pool.
type getSite struct {
	call   *ssa.Call
	args   []ssa.Value // callArgs of the call: receiver first
	prim   *primitive
	resets bool // the object comes back reset (or the pool resets it)
}

// sites returns the puts and gets in fn, as known so far.
func (c *checker) sites(fn *ssa.Function) (puts []putSite, gets []getSite) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, isGo := instr.(*ssa.Go); isGo {
				continue
			}
			_, deferred := instr.(*ssa.Defer)
			com := ci.Common()
			if clo, binds, cond := c.closureCall(fn, com); clo != nil {
				// once.Do(func() { put(x) }), or a call of a captured
				// closure: its Puts of captured variables are Puts here.
				if s := c.sums[clo]; s != nil {
					for idx, fp := range s.putFree {
						if idx >= len(binds) || binds[idx] == nil {
							continue
						}
						b := binds[idx]
						key := objKey{b, true}
						if !fp.cell {
							key = rootOf(b)
						}
						puts = append(puts, putSite{instr: ci, args: callArgs(com), key: key, arg: b, deferred: deferred, resets: fp.resets, cond: fp.cond || cond, field: fp.field, param: -1, reuse: fp.reuse && !cond})
					}
				}
				continue
			}
			if obj := c.cleanupPut(com); obj != nil {
				// defer cleanup() for body, cleanup := ReadAll(r).
				puts = append(puts, putSite{instr: ci, key: objKey{obj, false}, arg: obj, deferred: deferred, param: -1})
				continue
			}
			if deferred && com.IsInvoke() {
				// defer closer.Close() on an interface whose dynamic
				// value the function also asserts to a type of the
				// package (case *jsonOutBuffer:): that type's method
				// puts it (aws/aws-lambda-go#639).
				puts = append(puts, c.assertedPuts(fn, ci)...)
				continue
			}
			ce, ok := c.calleeOf(com)
			if !ok {
				continue
			}
			args := callArgs(com)
			if p := ce.prim; p != nil {
				if p.role == rolePut && p.param < len(args) {
					arg := args[p.param]
					if p == byteFree && ownedBuffer(arg) {
						continue // only its storage goes back; the Buffer is the caller's to reuse
					}
					puts = append(puts, putSite{instr: ci, args: args, key: assertedKey(rootOf(arg)), arg: arg, prim: p, deferred: deferred, param: p.param})
				} else if call, ok := ci.(*ssa.Call); ok && p.role == roleGet {
					gets = append(gets, getSite{call: call, args: args, prim: p, resets: c.poolResets(p, args)})
				}
				continue
			}
			s := ce.sum
			for idx, pp := range s.putParams {
				if idx < len(args) {
					arg := args[idx]
					ps := putSite{instr: ci, args: args, key: rootOf(selfOf(arg)), arg: arg, deferred: deferred, resets: pp.resets, cond: pp.cond, outcome: pp.outcome, field: pp.field, param: idx, guard: pp.guard, setsGuard: pp.setsGuard, release: pp.release, synced: pp.synced, reuse: pp.reuse}
					if pp.cond && pp.onParam >= 0 && pp.onParam < len(args) && !ps.resolveCond(args[pp.onParam], pp.onWhen, pp.never) {
						continue
					}
					puts = append(puts, ps)
				}
			}
			if mc, ok := com.Value.(*ssa.MakeClosure); ok {
				for idx, fp := range s.putFree {
					if idx >= len(mc.Bindings) {
						continue
					}
					b := mc.Bindings[idx]
					key := objKey{b, true}
					if !fp.cell {
						key = rootOf(b)
					}
					ps := putSite{instr: ci, args: args, key: key, arg: b, deferred: deferred, resets: fp.resets, cond: fp.cond, field: fp.field, param: -1, reuse: fp.reuse}
					if fp.cond && fp.onFree >= 0 && fp.onFree < len(mc.Bindings) {
						// The flag is captured by reference: it is known
						// only if the variable is assigned once.
						if a, ok := mc.Bindings[fp.onFree].(*ssa.Alloc); ok {
							if v := onlyStored(a); v != nil && !ps.resolveCond(v, fp.onWhen, fp.never) {
								continue
							}
						}
					}
					puts = append(puts, ps)
				}
			}
			if s.gets && !deferred {
				if call, ok := ci.(*ssa.Call); ok {
					gets = append(gets, getSite{call: call, args: args, resets: s.getResets})
				}
			}
		}
	}
	for i := range puts {
		if puts[i].release && refTaken(fn, puts[i].key) {
			puts[i].cond = true // another reference was taken here: the count decides
		}
	}
	sort.SliceStable(puts, func(i, j int) bool { return puts[i].instr.Pos() < puts[j].instr.Pos() })
	return puts, gets
}

// assertedPuts returns, for a deferred interface method call ci, a Put
// of each value fn asserts the same interface value to a pointer type of
// the package whose method of that name puts its receiver on every path.
func (c *checker) assertedPuts(fn *ssa.Function, ci ssa.CallInstruction) []putSite {
	com := ci.Common()
	origin := com.Value
	if ex, ok := origin.(*ssa.Extract); ok && ex.Index == 0 {
		if ta, ok := ex.Tuple.(*ssa.TypeAssert); ok {
			origin = ta.X // closer, ok := response.(io.Closer)
		}
	}
	var out []putSite
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ta, ok := instr.(*ssa.TypeAssert)
			if !ok || ta.X != origin || types.IsInterface(ta.AssertedType) {
				continue
			}
			ptr, ok := ta.AssertedType.(*types.Pointer)
			if !ok {
				continue
			}
			n, ok := types.Unalias(ptr.Elem()).(*types.Named)
			if !ok || n.Obj().Pkg() != c.pass.Pkg {
				continue
			}
			sel := types.NewMethodSet(ptr).Lookup(c.pass.Pkg, com.Method.Name())
			if sel == nil {
				continue
			}
			m, _ := sel.Obj().(*types.Func)
			if m == nil {
				continue
			}
			s := c.byObj[m]
			if s == nil {
				continue
			}
			pp, ok := s.putParams[0]
			if !ok || pp.cond || pp.field {
				continue
			}
			var v ssa.Value = ta
			if ta.CommaOk {
				v = extractOf(ta, 0)
				if v == nil {
					continue
				}
			}
			// The key is the interface value: it exists where the defer
			// is registered, and the asserted value is an alias of it.
			out = append(out, putSite{instr: ci, args: []ssa.Value{v}, key: objKey{origin, false}, arg: v, deferred: true, resets: pp.resets, param: 0, asserted: true})
		}
	}
	return out
}

// extractOf returns the Extract of component i of the tuple v, or nil.
func extractOf(v ssa.Value, i int) ssa.Value {
	if refs := v.Referrers(); refs != nil {
		for _, r := range *refs {
			if ex, ok := r.(*ssa.Extract); ok && ex.Index == i {
				return ex
			}
		}
	}
	return nil
}

// assertedKey returns, for an interface value that is asserted once to a
// pointer type (ci := pool.Get(); c := ci.(*T); ...; pool.Put(ci)), the
// key of the asserted value, which is the object the Put gives back and
// which the checks can follow; other keys are returned as they are.
func assertedKey(k objKey) objKey {
	if k.cell || !types.IsInterface(k.v.Type()) {
		return k
	}
	refs := k.v.Referrers()
	if refs == nil {
		return k
	}
	var found ssa.Value
	for _, r := range *refs {
		ta, ok := r.(*ssa.TypeAssert)
		if !ok {
			continue
		}
		if _, ptr := ta.AssertedType.Underlying().(*types.Pointer); !ptr || found != nil {
			return k
		}
		found = ta
		if ta.CommaOk {
			found = nil
			for _, u := range *ta.Referrers() {
				if ex, ok := u.(*ssa.Extract); ok && ex.Index == 0 {
					found = ex
				}
			}
			if found == nil {
				return k
			}
		}
	}
	if found == nil {
		return k
	}
	return objKey{found, false}
}

// refTaken reports whether fn takes a reference to the object of key: it
// calls a method on it (or passes it to a function) that increments a
// reference count of it, or one named like Ref, Retain, IncRef, AddRef,
// Acquire or Clone.
func refTaken(fn *ssa.Function, key objKey) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			args := callArgs(com)
			if len(args) == 0 || rootOf(args[0]) != key {
				continue
			}
			var name string
			callee := com.StaticCallee()
			if com.IsInvoke() {
				name = com.Method.Name()
			} else if callee != nil {
				name = callee.Name()
			}
			switch name {
			case "Ref", "Retain", "IncRef", "AddRef", "Acquire", "Clone", "Dup", "Incr", "Inc":
				return true
			}
			if callee != nil && len(callee.Params) > 0 && increments(callee, callee.Params[0]) {
				return true
			}
		}
	}
	return false
}

// increments reports whether fn adds a positive constant to a field of obj
// atomically, or increments it.
func increments(fn *ssa.Function, obj ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Call:
				if atomicAddSign(x, obj) > 0 {
					return true
				}
			case *ssa.Store:
				if bin, ok := x.Val.(*ssa.BinOp); ok && bin.Op == token.ADD && isConstInt(bin.Y) && fieldOfObj(x.Addr, obj) {
					return true
				}
			}
		}
	}
	return false
}

// closureCall resolves two calls of a closure that the call graph does
// not show: once.Do(f) with a function literal f, which runs f at most
// once (cond), and a call through a free variable bound to a function
// literal of the enclosing function (finalize := func() {...}; go func()
// { defer finalize() }()). It returns the literal's function and, for
// each of its free variables, the value of fn that it is bound to (nil
// when fn does not have it).
func (c *checker) closureCall(fn *ssa.Function, com *ssa.CallCommon) (*ssa.Function, []ssa.Value, bool) {
	if callee := com.StaticCallee(); callee != nil && len(com.Args) == 2 {
		if obj, ok := callee.Object().(*types.Func); ok && obj.Name() == "Do" && isNamed(derefType(com.Args[0].Type()), "sync", "Once") {
			if mc, ok := com.Args[1].(*ssa.MakeClosure); ok {
				if f, ok := mc.Fn.(*ssa.Function); ok {
					return f, mc.Bindings, true
				}
			}
		}
		return nil, nil, false
	}
	if com.IsInvoke() {
		return nil, nil, false
	}
	fv, _ := com.Value.(*ssa.FreeVar)
	byRef := false
	if u, ok := com.Value.(*ssa.UnOp); ok && u.Op == token.MUL {
		fv, _ = u.X.(*ssa.FreeVar) // captured by reference: a cell
		byRef = true
	}
	if fv == nil {
		return nil, nil, false
	}
	bs := bindingsOf(fn, fv)
	if len(bs) != 1 {
		return nil, nil, false
	}
	lit := bs[0]
	if byRef {
		a, ok := lit.(*ssa.Alloc)
		if !ok {
			return nil, nil, false
		}
		lit = onlyStored(a)
	}
	mc, ok := lit.(*ssa.MakeClosure)
	if !ok {
		return nil, nil, false
	}
	f, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return nil, nil, false
	}
	// The literal's bindings are values of the enclosing function; fn sees
	// those it captured itself as its own free variables.
	sites := closureSites(fn)
	if len(sites) != 1 {
		return nil, nil, false
	}
	own := sites[0]
	binds := make([]ssa.Value, len(mc.Bindings))
	for i, v := range mc.Bindings {
		for j, w := range own.Bindings {
			if w == v && j < len(fn.FreeVars) {
				binds[i] = fn.FreeVars[j]
			}
		}
	}
	return f, binds, false
}

// onlyStored returns the value stored into the local variable a if there
// is exactly one store into it, or nil.
func onlyStored(a *ssa.Alloc) ssa.Value {
	if stores := localStores(a); len(stores) == 1 {
		return stores[0].Val
	}
	return nil
}

// ownedBuffer reports whether the *bytepool.Buffer b is memory of the
// caller (a local variable, a composite literal, new, a field of a
// struct), not one that GetBuffer handed out: Free gives back only its
// storage, and the Buffer may be used again.
func ownedBuffer(b ssa.Value) bool {
	switch stripConv(b).(type) {
	case *ssa.Alloc, *ssa.FieldAddr:
		return true
	}
	return false
}

// branchesOnOutcomes reports whether no branch of fn depends on a
// parameter, a free variable or a field loaded from one; results of calls
// end the search (errors of writes are outcomes, not state).
func branchesOnOutcomes(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		if ifi, ok := lastInstr(b).(*ssa.If); ok && onState(ifi.Cond, 8) {
			return false
		}
	}
	return true
}

// onState reports whether v is computed, without a call on the way, from
// a parameter, a free variable or memory reached from one.
func onState(v ssa.Value, depth int) bool {
	if depth == 0 {
		return true
	}
	switch x := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global:
		return true
	case *ssa.Call, *ssa.Const:
		return false
	case *ssa.Extract:
		_, call := x.Tuple.(*ssa.Call)
		return !call && onState(x.Tuple, depth-1)
	case *ssa.BinOp, *ssa.UnOp, *ssa.FieldAddr, *ssa.Field, *ssa.IndexAddr, *ssa.Index, *ssa.ChangeType,
		*ssa.Convert, *ssa.MakeInterface, *ssa.ChangeInterface, *ssa.TypeAssert, *ssa.Phi, *ssa.Slice, *ssa.Lookup:
		for _, op := range x.(ssa.Instruction).Operands(nil) {
			if *op != nil && *op != v && onState(*op, depth-1) {
				return true
			}
		}
		return false
	}
	return true
}

// resolveCond settles a put that happens when the boolean v is when (and,
// with never, only then): a constant makes it unconditional, or no put at
// all; a parameter or free variable of the caller is recorded. It returns
// false when the call does not put.
func (p *putSite) resolveCond(v ssa.Value, when, never bool) bool {
	switch x := v.(type) {
	case *ssa.Const:
		if x.Value != nil && x.Value.Kind() == constant.Bool {
			if constant.BoolVal(x.Value) == when {
				p.cond = false
			} else if never {
				return false
			}
		}
	case *ssa.Parameter, *ssa.FreeVar:
		p.condOn, p.condWhen, p.condNever = v, when, never
	}
	return true
}

// poolResets reports whether a primitive Get returns objects that are reset
// by the pool itself, or whether that cannot be known (precision first).
func (c *checker) poolResets(p *primitive, args []ssa.Value) bool {
	switch p.kind {
	case kindSync:
		return false
	case kindTyped:
		if len(args) == 0 {
			return true
		}
		g := globalOf(args[0])
		if g == nil {
			return true // a pool we cannot see the configuration of
		}
		return len(c.hooks[g]["Reset"]) > 0
	}
	return true
}

// globalOf returns the package-level variable whose address v is, or nil.
func globalOf(v ssa.Value) *ssa.Global {
	// var p = &sync.Pool{...}: the pool is *p, and p names it.
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if g, ok := u.X.(*ssa.Global); ok && isPoolType(derefType(g.Type())) {
			v = g
		}
	}
	g, _ := v.(*ssa.Global)
	if g != nil && g.Pkg != nil {
		return g
	}
	return nil
}

// collectHooks records the stores to the New, Reset and Keep fields of
// package-level pools.
func (c *checker) collectHooks() {
	c.hooks = map[*ssa.Global]map[string][]ssa.Value{}
	// "var p = sync.Pool{New: f}" may be built in a temporary and copied.
	copied := map[ssa.Value]*ssa.Global{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if st, ok := instr.(*ssa.Store); ok {
					if g := globalOf(st.Addr); g != nil {
						if u, ok := st.Val.(*ssa.UnOp); ok && u.Op == token.MUL {
							copied[u.X] = g
						}
						if a, ok := st.Val.(*ssa.Alloc); ok && isPoolType(a.Type()) {
							copied[a] = g // var p = &sync.Pool{...}
						}
					}
				}
			}
		}
	}
	c.eachFieldStore(func(_ *ssa.Function, st *ssa.Store, fa *ssa.FieldAddr) {
		g := globalOf(fa.X)
		if g == nil {
			g = copied[fa.X]
		}
		if g == nil || !isPoolType(fa.X.Type()) {
			return
		}
		fields, ok := fa.X.Type().Underlying().(*types.Pointer).Elem().Underlying().(*types.Struct) // isPoolType: a pointer
		if !ok || fa.Field >= fields.NumFields() {
			return
		}
		name := fields.Field(fa.Field).Name()
		if c.hooks[g] == nil {
			c.hooks[g] = map[string][]ssa.Value{}
		}
		c.hooks[g][name] = append(c.hooks[g][name], st.Val)
	})
}

// isPoolType reports whether t is *sync.Pool or *pool.Pool[T].
func isPoolType(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Name() != "Pool" {
		return false
	}
	path := n.Obj().Pkg().Path()
	return path == "sync" || path == poolPath
}

// summarize computes the wrapper summary of every source function, until
// wrappers calling wrappers reach a fixed point.
func (c *checker) summarize() {
	for iter := 0; iter < 10; iter++ {
		changed := false
		for _, fn := range c.funcs {
			s := c.summaryOf(fn)
			old := c.sums[fn]
			if !s.equal(old) {
				changed = true
				obj, _ := fn.Object().(*types.Func)
				if s.empty() {
					delete(c.sums, fn)
					if obj != nil {
						delete(c.byObj, obj)
					}
				} else {
					c.sums[fn] = s
					if obj != nil {
						c.byObj[obj] = s
					}
				}
			}
		}
		if !changed {
			return
		}
	}
}

// summaryOf computes how fn acts on pools given the summaries known so far.
func (c *checker) summaryOf(fn *ssa.Function) *summary {
	s := &summary{}
	puts, gets := c.sites(fn)
	// The unconditional put instructions of each parameter: the parameter
	// is always put if every path passes through one of them.
	paramPuts := map[int][]ssa.Instruction{}
	condPuts := map[int][]*putSite{}         // conditional on a boolean of fn
	reusePuts := map[int][]ssa.Instruction{} // calls whose Put is paramPut.reuse
	addParam := func(i int, p *putSite, resets, field bool) {
		if s.putParams == nil {
			s.putParams = map[int]paramPut{}
		}
		pp, seen := s.putParams[i]
		pp.resets = pp.resets || resets
		pp.field = field && (!seen || pp.field)
		s.putParams[i] = pp
		if !p.cond {
			paramPuts[i] = append(paramPuts[i], p.instr)
		} else if p.reuse && !field {
			reusePuts[i] = append(reusePuts[i], p.instr)
		} else if p.condOn != nil {
			condPuts[i] = append(condPuts[i], p)
		}
	}
	elemPuts := map[int]bool{}  // parameters whose elements a range loop puts, each iteration
	elemReuse := map[int]bool{} // the same, through calls whose Put is paramPut.reuse
	for i := range puts {
		p := &puts[i]
		recordFieldPut(s, fn, p)
		resets := p.resets || c.resetsObj(fn, p.key)
		if prm := elemParam(p.key.v); prm != nil && !p.key.cell && (!p.cond || p.reuse) && everyIteration(p.instr.Block(), prm) && !storesElems(fn, prm) {
			// for _, b := range mb { b.Release() }: a release of every
			// element of the slice, which still holds them afterwards
			// (v2fly/v2ray-core fa63bec's MultiBuffer.Release). A loop
			// that also sets the elements to nil hands back an empty
			// slice, not a put one.
			for i, q := range fn.Params {
				if q == prm {
					addParam(i, p, resets, false)
					elemPuts[i] = elemPuts[i] || !p.cond
					elemReuse[i] = elemReuse[i] || p.cond
				}
			}
			continue
		}
		switch v := p.key.v.(type) {
		case *ssa.Parameter:
			if p.key.cell {
				continue
			}
			for i, q := range fn.Params {
				if q == v {
					addParam(i, p, resets, p.field)
				}
			}
		case *ssa.Alloc:
			if p.key.cell {
				// A parameter captured by a closure that puts it: the
				// variable holds the parameter if nothing else is stored.
				if prm, ok := onlyStored(v).(*ssa.Parameter); ok {
					for i, q := range fn.Params {
						if q == prm {
							addParam(i, p, resets, p.field)
						}
					}
				}
				continue
			}
			// pool.Put(&bs) of a parameter bs whose address is taken: the
			// variable holds the caller's slice, so the parameter is put.
			for i, q := range fn.Params {
				if storesFrom(fn, v, q, c) {
					addParam(i, p, resets, false)
				}
			}
		case *ssa.UnOp:
			// A Close or Release method: pool.Put(r.zr) of a field of a
			// parameter that the function leaves in place, so that a second
			// call puts the same object again.
			fa, ok := v.X.(*ssa.FieldAddr)
			if !ok || v.Op != token.MUL || p.key.cell || p.field {
				continue
			}
			fv, _ := fa.X.(*ssa.FreeVar)
			cell := false
			if u, ok := fa.X.(*ssa.UnOp); ok && u.Op == token.MUL {
				fv, _ = u.X.(*ssa.FreeVar) // captured by reference
				cell = true
			}
			if fv != nil && !storesTo(fn, fa) {
				// The same in a closure over the receiver, typically
				// deferred by Close (cockroachdb/pebble 920d4db).
				for i, q := range fn.FreeVars {
					if q != fv {
						continue
					}
					if s.putFree == nil {
						s.putFree = map[int]freePut{}
					}
					if _, seen := s.putFree[i]; !seen {
						s.putFree[i] = freePut{field: true, cell: cell, cond: p.cond || !putsOnEveryPath(fn, []ssa.Instruction{p.instr}, fv), onFree: -1}
					}
				}
				continue
			}
			q, ok := fa.X.(*ssa.Parameter)
			if !ok || storesTo(fn, fa) {
				continue
			}
			for i, x := range fn.Params {
				if x == q {
					addParam(i, p, false, true)
				}
			}
		case *ssa.Phi, *ssa.SliceToArrayPointer, *ssa.Slice:
			// if buf.Cap() > max { buf = newBuffer() }; pool.Put(buf): the
			// parameter is put, or dropped for a fresh replacement; the
			// caller gives it up either way (trufflehog's buffer pool).
			// pool.Put((*[N]byte)(buf[:cap(buf)])) of a []byte parameter:
			// a size-classed allocator puts the array behind the caller's
			// slice (MetaCubeX/mihomo's common/pool).
			if prm := paramBehind(v); prm != nil && !p.key.cell {
				if i := paramIndex(fn, prm); i >= 0 {
					addParam(i, p, resets, p.field)
				}
			} else if prm := boxedParam(fn, v); prm != nil && !p.key.cell {
				// A typed pool that boxes its values: the parameter is
				// stored into a spare box or a new one, which is put
				// (prometheus's zeropool).
				if i := paramIndex(fn, prm); i >= 0 {
					addParam(i, p, false, false)
				}
			}
		case *ssa.FreeVar:
			for i, q := range fn.FreeVars {
				if q == v {
					if s.putFree == nil {
						s.putFree = map[int]freePut{}
					}
					fp, seen := s.putFree[i]
					cond := p.cond || !mustPass(fn, []ssa.Instruction{p.instr}, v, nil, false)
					if seen {
						cond = cond && fp.cond
					}
					reuse := p.reuse && mustPass(fn, []ssa.Instruction{p.instr}, v, nil, false)
					nfp := freePut{resets: fp.resets || resets, cell: p.key.cell, cond: cond, onFree: -1, reuse: cond && (reuse || seen && fp.reuse)}
					if cond && !p.cond && !seen {
						// Put under if flag { ... } of a captured boolean.
						for j, q := range fn.FreeVars {
							if w, ok := boolGuard(fn, p.instr, v, q); ok {
								nfp.onFree, nfp.onWhen = j, w
								nfp.never = !reaches(fn, []ssa.Instruction{p.instr}, q, !w)
								break
							}
						}
					}
					s.putFree[i] = nfp
				}
			}
		}
	}
	c.recordCalleeFieldPuts(s, fn)
	c.recordCleanups(s, fn)
	c.recordPutsInto(s, fn, puts)
	c.recordStoresAt(s, fn)
	c.recordViews(s, fn)
	c.recordKeepsAt(s, fn)
	s.tupleViews = c.tupleViews(fn)
	s.grows = grownParam(fn)
	outcome := branchesOnOutcomes(fn)
	for _, p := range puts {
		if p.cond && !p.outcome {
			outcome = false // inherited from a callee that looks at state
		}
	}
	for i, pp := range s.putParams {
		pp.cond = !mustPass(fn, paramPuts[i], fn.Params[i], nil, false) && !sizeGuarded(fn, paramPuts[i], fn.Params[i]) && !elemPuts[i]
		if pp.cond && pp.field && putsOnEveryPath(fn, paramPuts[i], fn.Params[i]) {
			pp.cond = false // if r.zr != nil { put(r.zr) }: a nil field is nothing to put
		}
		pp.release = false
		if pp.cond && refGuarded(fn, paramPuts[i], fn.Params[i]) {
			// A reference-counted release: it drops one reference on
			// every path, and puts when that was the last.
			pp.cond, pp.release = false, true
		}
		pp.outcome = pp.cond && outcome
		pp.reuse = pp.cond && !pp.field && !pp.release && (elemReuse[i] ||
			len(reusePuts[i]) > 0 && mustPass(fn, append(paramPuts[i], reusePuts[i]...), fn.Params[i], nil, false) ||
			c.reuseGuarded(fn, paramPuts[i], fn.Params[i]))
		pp.synced = c.syncedBefore(fn, paramPuts[i])
		pp.onParam = -1
		pp.guard, pp.setsGuard = 0, false
		if pp.cond && pp.field {
			if g, ok := fieldGuard(fn, paramPuts[i], fn.Params[i]); ok {
				pp.guard, pp.setsGuard = g+1, storesField(fn, fn.Params[i], g)
			}
		}
		if pp.cond {
			// A Put on every path where a boolean parameter has one value.
			for k, q := range fn.Params {
				if !isBool(q.Type()) {
					continue
				}
				for _, when := range []bool{true, false} {
					instrs := append([]ssa.Instruction(nil), paramPuts[i]...)
					for _, cp := range condPuts[i] {
						if cp.condOn == q && cp.condWhen == when {
							instrs = append(instrs, cp.instr)
						}
					}
					if pp.onParam < 0 && mustPass(fn, instrs, fn.Params[i], q, when) {
						pp.onParam, pp.onWhen = k, when
						// Never put when the flag is !when: no direct Put
						// is reached then, and every conditional one is on
						// this flag with the same value and never otherwise.
						pp.never = !reaches(fn, paramPuts[i], q, !when)
						for _, cp := range condPuts[i] {
							if cp.condOn != q || cp.condWhen != when || !cp.condNever {
								pp.never = false
							}
						}
					}
				}
			}
		}
		s.putParams[i] = pp
	}
	s.aliases = c.returnsAlias(fn)
	s.aliasField = -1
	if !s.aliases {
		if f, ok := c.returnsHolder(fn); ok {
			s.aliases, s.aliasField = true, f
		}
	}
	s.handsOff, s.onSuccess = c.handsOffParams(fn, s)
	s.keeps = keptParams(fn)
	for i := range c.viewParams(fn) {
		if s.keeps == nil {
			s.keeps = map[int]bool{}
		}
		s.keeps[i] = true
	}
	s.retainsIn = c.retainedParams(fn)
	if len(gets) > 0 && fn.Signature.Results().Len() > 0 {
		for _, b := range fn.Blocks {
			ret, ok := lastInstr(b).(*ssa.Return)
			if !ok || len(ret.Results) == 0 {
				continue
			}
			for _, g := range gets {
				if c.flowsFrom(ret.Results[0], g.call) {
					s.gets = true
					s.getResets = g.resets || c.resetsObj(fn, objKey{g.call, false}) || c.writesField(fn, g.call, nil) // a getter that re-initialises fields (gonum getDenseWorkspace) counts as a reset
				}
			}
		}
		if s.gets && fn.Signature.Recv() != nil {
			s.cached = cachedField(fn)
		}
		// A method that fills a field of its receiver from a pool once and
		// returns that field every time (if p.buf == nil { p.buf =
		// proc.NewBatch() }; ...; return p.buf): the receiver owns it
		// (matrixorigin/matrixone#18078).
		if !s.gets && fn.Signature.Recv() != nil {
			if f := cachedField(fn); f != "" && c.fillsFieldFromPool(fn, gets, f) {
				s.cached = f
			}
		}
	}
	return s
}

// paramBehind returns the parameter that v puts in its place: through a
// phi with fresh replacements (replacedParam), or re-sliced or converted
// to an array pointer (slicedParam).
func paramBehind(v ssa.Value) *ssa.Parameter {
	if ph, ok := v.(*ssa.Phi); ok {
		return replacedParam(ph)
	}
	return slicedParam(v)
}

// boxedParam returns the parameter that fn stores into the box v, a phi
// of boxes taken from a pool and new ones (ptr = spare.Get().(*T) or
// new(T); *ptr = item), or nil.
func boxedParam(fn *ssa.Function, v ssa.Value) *ssa.Parameter {
	ph, ok := v.(*ssa.Phi)
	if !ok {
		return nil
	}
	for _, e := range ph.Edges {
		switch x := e.(type) {
		case *ssa.Alloc:
			if !x.Heap {
				return nil
			}
		case *ssa.TypeAssert:
		default:
			return nil
		}
	}
	var prm *ssa.Parameter
	for _, r := range *ph.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != ph {
			continue
		}
		q, ok := st.Val.(*ssa.Parameter)
		if !ok || isReceiver(q) || prm != nil && prm != q {
			return nil
		}
		prm = q
	}
	return prm
}

// replacedParam returns the parameter that the phi v merges with fresh
// values only (a new allocation, a composite literal's address), or nil.
func replacedParam(v *ssa.Phi) *ssa.Parameter {
	var prm *ssa.Parameter
	for _, e := range v.Edges {
		switch x := e.(type) {
		case *ssa.Parameter:
			if prm != nil && prm != x {
				return nil
			}
			prm = x
		case *ssa.Alloc:
			if !x.Heap {
				return nil
			}
		default:
			if !freshSlice(e) {
				return nil
			}
		}
	}
	return prm
}

// slicedParam returns the slice parameter whose backing array v is: the
// parameter itself, re-sliced or converted to an array pointer.
func slicedParam(v ssa.Value) *ssa.Parameter {
	for {
		switch x := v.(type) {
		case *ssa.Parameter:
			if _, ok := x.Type().Underlying().(*types.Slice); ok {
				return x
			}
			return nil
		case *ssa.SliceToArrayPointer:
			v = x.X
		case *ssa.Slice:
			if _, ok := x.X.Type().Underlying().(*types.Slice); !ok {
				return nil
			}
			v = x.X
		default:
			return nil
		}
	}
}

// fillsFieldFromPool reports whether fn stores into the field of its
// receiver named f an object that one of gets returned.
func (c *checker) fillsFieldFromPool(fn *ssa.Function, gets []getSite, f string) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || fa.X != fn.Params[0] || fieldName(fa) != f {
				continue
			}
			for _, g := range gets {
				if c.flowsFrom(st.Val, g.call) {
					return true
				}
			}
		}
	}
	return false
}

// cachedField returns the name of the field of fn's receiver that some
// return of fn returns as it is, loaded from the field, or "".
func cachedField(fn *ssa.Function) string {
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		ld, ok := storedResult(ret.Results[0]).(*ssa.UnOp)
		if !ok || ld.Op != token.MUL || !pointerLike(ld.Type()) {
			continue
		}
		if fa, ok := ld.X.(*ssa.FieldAddr); ok && fa.X == fn.Params[0] && !movedOut(fn, ld, fa) {
			return fieldName(fa)
		}
	}
	return ""
}

// movedOut reports whether fn stores into the field fa after the load ld
// (ret := gz.zr; gz.zr = nil; return ret, x/net's GzipReader.acquire):
// the field no longer keeps what fn returns.
func movedOut(fn *ssa.Function, ld *ssa.UnOp, fa *ssa.FieldAddr) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			if f, ok := st.Addr.(*ssa.FieldAddr); ok && f.X == fa.X && f.Field == fa.Field && mayPrecede(ld, st) {
				return true
			}
		}
	}
	return false
}

// returnsAlias reports whether result 0 of fn shares memory with its
// parameter 0 (the receiver of a method): a slice or map such as a Bytes
// method's (for functions, a slice only), or a string made over the bytes
// with unsafe
// (projectdiscovery/utils#711: bytesToString(r.headers.Bytes())).
func (c *checker) returnsAlias(fn *ssa.Function) bool {
	if len(fn.Params) == 0 || fn.Signature.Results().Len() == 0 {
		return false
	}
	rt := fn.Signature.Results().At(0).Type()
	if isPointer(rt) && fn.Signature.Recv() != nil {
		// return &p.v: a pointer into the receiver, such as the value a
		// parser keeps in its own storage (perlin-network/wavelet#427).
		for _, b := range fn.Blocks {
			if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 && interiorOf(ret.Results[0], fn.Params[0]) {
				return true
			}
		}
		return returnsSelf(fn)
	}
	if !sharesBacking(rt) && !isString(rt) {
		return false
	}
	if _, slice := rt.Underlying().(*types.Slice); fn.Signature.Recv() == nil && !slice && !isString(rt) {
		// A function returning a struct built from its argument (a
		// config with defaults filled in) is a copy, not a view.
		return false
	}
	al := c.aliasesOf(fn, objKey{fn.Params[0], false}, false)
	for _, b := range fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 && (al[ret.Results[0]] || viewOrFresh(ret.Results[0], al) || appendChain(ret.Results[0], fn.Params[0], map[ssa.Value]bool{})) {
			return true
		}
	}
	if _, slice := rt.Underlying().(*types.Slice); !slice || fn.Signature.Recv() == nil {
		return false
	}
	mayAl := c.aliasesOf(fn, objKey{fn.Params[0], false}, true)
	for _, b := range fn.Blocks {
		if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 && appendsViews(ret.Results[0], mayAl, map[ssa.Value]bool{}) {
			return true
		}
	}
	return false
}

// returnsSelf reports whether the method fn returns its receiver (or nil)
// on every path, and the receiver on one at least: a chained setter
// (func (r *Record) WithField(k string, v any) *Record { ...; return r }),
// whose result is the object itself (gookit/slog 4ae7f8a).
func returnsSelf(fn *ssa.Function) bool {
	self := false
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return false
		}
		switch {
		case ret.Results[0] == fn.Params[0]:
			self = true
		case isNil(ret.Results[0]):
		default:
			return false
		}
	}
	return self
}

// appendsViews reports whether v is a slice grown by appends (through
// slicing and a loop's phis) of elements that hold memory of al: out =
// append(out, TS{Labels: r.labels[k:]}) returns views of r's buffer
// whatever out started as (VictoriaMetrics/VictoriaMetrics#4849).
func appendsViews(v ssa.Value, al map[ssa.Value]bool, seen map[ssa.Value]bool) bool {
	if seen[v] || len(seen) > 32 {
		return false
	}
	seen[v] = true
	switch x := v.(type) {
	case *ssa.Call:
		if !isBuiltin(&x.Call, "append") || len(x.Call.Args) < 2 {
			return false
		}
		return appendsHeld(&x.Call, x.Call.Args[1]) && al[x.Call.Args[1]] || appendsViews(x.Call.Args[0], al, seen)
	case *ssa.Slice:
		return appendsViews(x.X, al, seen)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if appendsViews(e, al, seen) {
				return true
			}
		}
	}
	return false
}

// grownParam returns the index of the slice parameter, after the first,
// that every return of fn gives back as result 0 grown by appends
// (decodeSeries(rec, dst) appending to dst), or 0.
func grownParam(fn *ssa.Function) int {
	if fn.Signature.Results().Len() == 0 {
		return 0
	}
	rt := fn.Signature.Results().At(0).Type()
	if _, ok := rt.Underlying().(*types.Slice); !ok {
		return 0
	}
	for i := 1; i < len(fn.Params); i++ {
		if !types.Identical(fn.Params[i].Type(), rt) {
			continue
		}
		all, any := true, false
		for _, b := range fn.Blocks {
			if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 {
				// return nil, err: an error path returns nothing of it.
				if isNil(ret.Results[0]) && len(ret.Results) > 1 {
					continue
				}
				any = true
				if !appendChain(ret.Results[0], fn.Params[i], map[ssa.Value]bool{}) {
					all = false
				}
			}
		}
		if all && any {
			return i
		}
	}
	return 0
}

// appendChain reports whether v is p grown by appends, through slicing and
// the phis of a loop (for _, c := range src { dst = append(dst, c) };
// return dst): the must-alias set misses such a loop's phis, each waiting
// for the other.
func appendChain(v, p ssa.Value, seen map[ssa.Value]bool) bool {
	if v == p {
		return true
	}
	if r, ok := seen[v]; ok {
		return r // true while v is in progress: a loop's phi
	}
	if len(seen) > 32 {
		return false
	}
	seen[v] = true
	r := false
	switch x := v.(type) {
	case *ssa.Call:
		// append, or strconv's Append* functions, which append to
		// their first argument.
		r = (isBuiltin(&x.Call, "append") || strings.HasPrefix(calleeName(&x.Call), "strconv.Append")) && len(x.Call.Args) > 0 && appendChain(x.Call.Args[0], p, seen)
	case *ssa.Slice:
		r = appendChain(x.X, p, seen)
	case *ssa.Phi:
		r = true
		for _, e := range x.Edges {
			if !appendChain(e, p, seen) {
				r = false
				break
			}
		}
	}
	seen[v] = r
	return r
}

// viewOrFresh reports whether v is a phi of a view (one of al) and of
// slices made here: the view when it is large enough, a new slice
// otherwise (youzan/nsq 2d099a3's getTracedReponse). The caller cannot
// tell which it got, so the result is a view.
func viewOrFresh(v ssa.Value, al map[ssa.Value]bool) bool {
	phi, ok := v.(*ssa.Phi)
	if !ok {
		return false
	}
	view := false
	for _, e := range phi.Edges {
		switch {
		case al[e]:
			view = true
		case freshSlice(e):
		default:
			return false
		}
	}
	return view
}

// freshSlice reports whether v is a slice made here: make([]byte, n), or
// of a constant size (an array allocated and sliced).
func freshSlice(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.MakeSlice:
		return true
	case *ssa.Slice:
		_, ok := x.X.(*ssa.Alloc)
		return ok
	}
	return false
}

// viewParams returns the parameters after the first, of slice type, that
// result 0, a string or a slice, shares memory with on some return: a
// method that gives a zero-copy view of its argument
// (app.toString(b) = unsafe.String(&b[0], len(b)), gofiber/fiber#4275).
// Parameter 0 is returnsAlias's.
func (c *checker) viewParams(fn *ssa.Function) map[int]bool {
	if len(fn.Params) < 2 || fn.Signature.Results().Len() == 0 {
		return nil
	}
	rt := fn.Signature.Results().At(0).Type()
	if _, slice := rt.Underlying().(*types.Slice); !slice && !isString(rt) {
		return nil
	}
	var out map[int]bool
	for i, prm := range fn.Params[1:] {
		if _, ok := prm.Type().Underlying().(*types.Slice); !ok {
			continue
		}
		al := c.aliasesOf(fn, objKey{prm, false}, false)
		for _, b := range fn.Blocks {
			if ret, ok := lastInstr(b).(*ssa.Return); ok && len(ret.Results) > 0 && al[ret.Results[0]] {
				if out == nil {
					out = map[int]bool{}
				}
				out[i+1] = true
			}
		}
	}
	return out
}

// returnsHolder reports whether result 0 of fn is a fresh struct that
// holds, in one of its fields, a slice or map loaded from a field of
// parameter 0 (blevesearch/bleve#847: newSegment(s) returns
// &Segment{fieldsInv: s.fieldsInv}), and which field of parameter 0.
func (c *checker) returnsHolder(fn *ssa.Function) (int, bool) {
	if len(fn.Params) == 0 || fn.Signature.Results().Len() == 0 {
		return -1, false
	}
	if _, ok := derefStruct(fn.Params[0].Type()); !ok {
		return -1, false
	}
	field := -1
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		alloc, ok := ret.Results[0].(*ssa.Alloc)
		if !ok {
			return -1, false
		}
		for _, st := range fieldStores(alloc) {
			if !sharesBacking(st.Val.Type()) {
				continue
			}
			v := unslice(st.Val)
			load, ok := v.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			if src, ok := load.X.(*ssa.FieldAddr); ok && src.X == fn.Params[0] {
				if field >= 0 && field != src.Field {
					return -1, false
				}
				field = src.Field
			}
		}
	}
	return field, field >= 0
}

// retainedParams returns the parameters of fn, other than the first (the
// receiver of a method), that fn stores (or an alias of) into a field the
// first reaches: after a call, the first argument holds them.
func (c *checker) retainedParams(fn *ssa.Function) map[int]bool {
	if len(fn.Params) < 2 {
		return nil
	}
	recv := fn.Params[0]
	// The receiver, or the first parameter of a function, a struct
	// pointer or an interface the function asserts to one
	// (resp, ok := r.(*HttpMotanResponse); resp.HttpResponse = h:
	// weibocom/motan-go#403).
	isRecv := func(v ssa.Value) bool { return v == recv }
	if _, ok := derefStruct(recv.Type()); !ok {
		if fn.Signature.Recv() != nil || !types.IsInterface(recv.Type()) {
			return nil
		}
		isRecv = func(v ssa.Value) bool {
			if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
				v = ex.Tuple
			}
			ta, ok := v.(*ssa.TypeAssert)
			if !ok || ta.X != recv {
				return false
			}
			_, ok = derefStruct(ta.AssertedType)
			return ok
		}
	}
	var out map[int]bool
	for i := 1; i < len(fn.Params); i++ {
		prm := fn.Params[i]
		// A string can be a view of pooled bytes (unsafe.String): kept as
		// a key or value of a map field, it is retained. (Pointers kept in
		// a map field are a registry that owns them: raft's pending
		// entries.)
		str := isString(prm.Type())
		if !sharesBacking(prm.Type()) && !pointerLike(prm.Type()) && !str {
			continue
		}
		al := c.aliasesOf(fn, objKey{prm, false}, true) // may: data = data[i+1:] in a loop
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mu, ok := instr.(*ssa.MapUpdate); ok && str && (al[mu.Key] || al[mu.Value]) {
					// s.data[key] = v, the map a field of the receiver.
					if ld, ok := mu.Map.(*ssa.UnOp); ok && ld.Op == token.MUL {
						if fa, ok := ld.X.(*ssa.FieldAddr); ok && isRecv(fa.X) {
							if out == nil {
								out = map[int]bool{}
							}
							out[i] = true
						}
					}
					continue
				}
				// A string given to a method that keeps it (a key of its
				// sync.Map or map field) is kept as well.
				if call, ok := instr.(*ssa.Call); ok {
					// r.resp.SetBodyRaw(b), or a method of the receiver
					// itself that keeps b: the receiver holds it too
					// (gofiber/fiber#625's SendBytes).
					for _, a := range callArgs(&call.Call) {
						if !al[a] {
							continue
						}
						inner := c.retainingReceiver(&call.Call, a)
						for k := 0; k < 4 && inner != nil; k++ {
							if isRecv(inner) {
								if out == nil {
									out = map[int]bool{}
								}
								out[i] = true
								break
							}
							switch x := inner.(type) {
							case *ssa.FieldAddr:
								inner = x.X
							case *ssa.UnOp: // ctx.Fasthttp.Response: through a pointer field
								inner = nil
								if x.Op == token.MUL {
									inner = x.X
								}
							default:
								inner = nil
							}
						}
					}
					continue
				}
				st, ok := instr.(*ssa.Store)
				if !ok || !al[st.Val] || str {
					continue
				}
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && isRecv(fa.X) {
					if out == nil {
						out = map[int]bool{}
					}
					out[i] = true
				}
			}
		}
	}
	return out
}

// keptParams returns the parameters of fn (slices, maps, pointers) that
// every return of a fresh struct as result 0 stores as they are (or
// resliced) into one of its fields; returns of nil do not count.
func keptParams(fn *ssa.Function) map[int]bool {
	if fn.Signature.Results().Len() == 0 {
		return nil
	}
	var kept map[int]bool
	first := true
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) == 0 || isNil(ret.Results[0]) {
			continue
		}
		r := ret.Results[0]
		if mi, ok := r.(*ssa.MakeInterface); ok {
			r = mi.X
		}
		here := map[int]bool{}
		// A closure that captures a parameter holds it (bodyReader(buf)
		// returning func() io.ReadCloser { ... buf ... }:
		// open-telemetry/opentelemetry-go#8196).
		if mc, ok := r.(*ssa.MakeClosure); ok {
			for _, bnd := range mc.Bindings {
				// A captured variable is a cell holding the parameter.
				if a, ok := bnd.(*ssa.Alloc); ok {
					if held := onlyStored(a); held != nil {
						bnd = held
					}
				}
				for i, q := range fn.Params {
					if bnd == ssa.Value(q) && (sharesBacking(q.Type()) || pointerLike(q.Type())) {
						here[i] = true
					}
				}
			}
		} else if alloc, ok := r.(*ssa.Alloc); ok {
			for _, st := range fieldStores(alloc) {
				v := unslice(st.Val)
				prm, ok := v.(*ssa.Parameter)
				if !ok || !sharesBacking(prm.Type()) && !pointerLike(prm.Type()) {
					continue
				}
				for i, q := range fn.Params {
					if q == prm {
						here[i] = true
					}
				}
			}
		} else {
			return nil
		}
		if first {
			kept, first = here, false
			continue
		}
		for i := range kept {
			if !here[i] {
				delete(kept, i)
			}
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// fieldStores returns the stores into fields of the struct alloc points to
// (the field values of a composite literal), or into elements of the array
// (the array of a variadic call's arguments).
func fieldStores(alloc ssa.Value) []*ssa.Store {
	var out []*ssa.Store
	if alloc.Referrers() == nil {
		return nil
	}
	for _, r := range *alloc.Referrers() {
		addr, ok := r.(ssa.Value)
		if !ok || addr.Referrers() == nil {
			continue
		}
		switch r.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr:
		default:
			continue
		}
		for _, rr := range *addr.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == addr {
				out = append(out, st)
			}
		}
	}
	return out
}

// flowsFrom reports whether v is src, or src converted or merged.
func (c *checker) flowsFrom(v ssa.Value, src ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == src {
			return true
		}
		if seen[v] {
			return false
		}
		seen[v] = true
		switch x := v.(type) {
		case *ssa.Phi:
			for _, e := range x.Edges {
				if walk(e) {
					return true
				}
			}
		case *ssa.TypeAssert:
			return walk(x.X)
		case *ssa.Extract:
			if x.Index == 0 {
				return walk(x.Tuple)
			}
		case *ssa.ChangeType:
			return walk(x.X)
		case *ssa.MakeInterface:
			return walk(x.X)
		case *ssa.ChangeInterface:
			return walk(x.X)
		case *ssa.Slice:
			return walk(x.X) // b := buf[:0]; pool.Put(&b) puts buf's memory
		}
		return false
	}
	return walk(v)
}

// exportFacts exports the summaries of declared functions and methods.
func (c *checker) exportFacts() {
	for _, fn := range c.funcs {
		s := c.sums[fn]
		if s.empty() || len(s.putParams) == 0 && !s.gets && !s.aliases && len(s.handsOff) == 0 {
			continue
		}
		// Only what other packages can call needs a fact.
		obj, _ := fn.Object().(*types.Func)
		if obj == nil || fn.Parent() != nil || !obj.Exported() {
			continue
		}
		f := &wrapperFact{Gets: s.gets, GetResets: s.getResets, Aliases: s.aliases}
		for p, pp := range s.putParams {
			f.PutParams = append(f.PutParams, p)
			if pp.resets {
				f.ResetParams = append(f.ResetParams, p)
			}
			if pp.cond {
				f.CondParams = append(f.CondParams, p)
			}
			if pp.field {
				f.FieldParams = append(f.FieldParams, p)
			}
		}
		sort.Ints(f.PutParams)
		sort.Ints(f.ResetParams)
		sort.Ints(f.CondParams)
		sort.Ints(f.FieldParams)
		for p := range s.handsOff {
			f.HandsOff = append(f.HandsOff, p)
		}
		sort.Ints(f.HandsOff)
		c.pass.ExportObjectFact(obj, f)
	}
}

// storesTo reports whether fn stores into the field at fa (of the same
// base), as a Close that clears the field after putting it does.
func storesTo(fn *ssa.Function, fa *ssa.FieldAddr) bool { return storesField(fn, fa.X, fa.Field) }

// mustPass reports whether every path from the entry of fn to a return
// passes through one of instrs. A branch on obj != nil counts only on its non-nil
// side, so that "if buf != nil { pool.Put(buf) }" still always puts buf.
// Likewise a size guard of obj (see sizeGuard) counts only on the side where
// the size is within the bound: "if buf.Cap() <= max { pool.Put(buf) }" and
// "if buf.Cap() > max { return }" put every buffer of normal size, and only
// exist to drop huge ones.
//
// With flag set, paths are followed only where the boolean flag is when.
func mustPass(fn *ssa.Function, instrs []ssa.Instruction, obj ssa.Value, flag ssa.Value, when bool) bool {
	if len(instrs) == 0 {
		return false
	}
	at := blocksOf(instrs)
	returns := searchBlocks(fn, at, func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		return guardSuccs(b, flagSuccs(b, flag, when), obj)
	}, func(b *ssa.BasicBlock) bool {
		_, ok := lastInstr(b).(*ssa.Return)
		return !at[b] && ok
	})
	return len(fn.Blocks) > 0 && !returns
}

// putsOnEveryPath reports whether every path from the entry of fn to a
// return passes through one of instrs, the Puts of fields of obj, or
// leaves through a nil check or a size guard of what they put (another
// load of the same field counts: if w.zr != nil { put(w.zr) }).
func putsOnEveryPath(fn *ssa.Function, instrs []ssa.Instruction, obj ssa.Value) bool {
	if len(instrs) == 0 || len(fn.Blocks) == 0 {
		return false
	}
	putObjs := putObjects(instrs)
	if obj != nil {
		putObjs = append(putObjs, obj) // the holder of a put field
	}
	at := blocksOf(instrs)
	return !searchBlocks(fn, at, func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		return guardSuccs(b, b.Succs, putObjs...)
	}, func(b *ssa.BasicBlock) bool {
		_, ok := lastInstr(b).(*ssa.Return)
		return !at[b] && ok
	})
}

// elemParam returns the slice parameter whose element v is, or holds as a
// field (s[i], s[i].ts), or nil.
func elemParam(v ssa.Value) *ssa.Parameter {
	for i := 0; v != nil && i < 4; i++ {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return nil
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.IndexAddr:
			prm, ok := x.X.(*ssa.Parameter)
			if !ok {
				return nil
			}
			if _, ok := prm.Type().Underlying().(*types.Slice); !ok {
				return nil
			}
			return prm
		default:
			return nil
		}
	}
	return nil
}

// everyIteration reports whether b is the body of a loop over the slice s
// that runs on every iteration: its one predecessor ends the loop when the
// index reaches len(s).
func everyIteration(b *ssa.BasicBlock, s ssa.Value) bool {
	if b == nil || len(b.Preds) != 1 {
		return false
	}
	ifi, ok := lastInstr(b.Preds[0]).(*ssa.If)
	if !ok || b.Preds[0].Succs[0] != b {
		return false
	}
	bin, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || bin.Op != token.LSS || !loopIndex(bin.X) {
		return false
	}
	ln, ok := bin.Y.(*ssa.Call)
	if !ok {
		return false
	}
	bi, ok := ln.Call.Value.(*ssa.Builtin)
	return ok && bi.Name() == "len" && len(ln.Call.Args) == 1 && ln.Call.Args[0] == s
}

// storesElems reports whether fn stores into an element of the slice s
// (s[i] = nil).
func storesElems(fn *ssa.Function, s ssa.Value) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if ia, ok := st.Addr.(*ssa.IndexAddr); ok && ia.X == s {
					return true
				}
			}
		}
	}
	return false
}

// syncedBefore reports whether every path from the entry of fn to one of
// the Puts instrs, or to a return for a deferred one, passes a receive, a
// Wait or a lock first (isSync).
func (c *checker) syncedBefore(fn *ssa.Function, instrs []ssa.Instruction) bool {
	if len(instrs) == 0 || len(fn.Blocks) == 0 {
		return false
	}
	target := map[ssa.Instruction]bool{}
	deferred := false
	for _, in := range instrs {
		target[in] = true
		if _, ok := in.(*ssa.Defer); ok {
			deferred = true
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[b] {
			continue
		}
		seen[b] = true
		synced := false
		for _, in := range b.Instrs {
			if target[in] && !deferred && !synced {
				return false
			}
			if _, ok := in.(*ssa.Return); ok && deferred && !synced {
				return false
			}
			if c.isSync(in) {
				synced = true
			}
		}
		if !synced {
			work = append(work, b.Succs...)
		}
	}
	return true
}

// putObjects returns the objects that the Put calls instrs put.
func putObjects(instrs []ssa.Instruction) []ssa.Value {
	var objs []ssa.Value
	for _, instr := range instrs {
		if ci, ok := instr.(ssa.CallInstruction); ok {
			for _, a := range ci.Common().Args {
				objs = append(objs, rootOf(a).v)
				// pool.Put(&p) of p := b.v: a nil b.v is nothing to put.
				if al, ok := rootOf(a).v.(*ssa.Alloc); ok {
					if held := onlyStored(al); held != nil {
						objs = append(objs, held)
					}
				}
			}
		}
	}
	return objs
}

// guardSuccs returns, of the successors succs of b, the one a nil check or
// a size guard of one of objs at the end of b takes for an object that
// goes back to the pool (non-nil, of ordinary size), or succs as they are.
func guardSuccs(b *ssa.BasicBlock, succs []*ssa.BasicBlock, objs ...ssa.Value) []*ssa.BasicBlock {
	ifi, ok := lastInstr(b).(*ssa.If)
	if !ok || len(succs) != 2 {
		return succs
	}
	bin, ok := ifi.Cond.(*ssa.BinOp)
	if !ok {
		return succs
	}
	for _, obj := range objs {
		if isNilCheckOf(bin, obj) {
			if bin.Op == token.NEQ {
				return succs[:1] // the true branch: obj != nil
			}
			return succs[1:] // the false branch of obj == nil
		}
		if small, ok := sizeGuard(bin, obj); ok {
			return succs[small : small+1]
		}
		if occupancyTest(bin, obj) {
			// if b.Cap()/2 < b.Len() { put(b) }: the object's own sizes
			// decide whether it is put or dropped, which the caller cannot
			// choose (mongo-go-driver's bufPool). The side that leaves at
			// once drops it.
			r0, r1 := bareReturn(succs[0]), bareReturn(succs[1])
			if r0 != r1 {
				if r0 {
					return succs[1:]
				}
				return succs[:1]
			}
		}
	}
	return succs
}

// occupancyTest reports whether bin compares two sizes of obj (each
// len, cap, Len or Cap of it, scaled by constants): how full it is.
func occupancyTest(bin *ssa.BinOp, obj ssa.Value) bool {
	switch bin.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		return scaledSizeOf(bin.X, obj, 0) && scaledSizeOf(bin.Y, obj, 0)
	}
	return false
}

// scaledSizeOf reports whether v is a size of obj (isSizeOf) multiplied,
// divided or shifted by constants.
func scaledSizeOf(v, obj ssa.Value, depth int) bool {
	if isSizeOf(v, obj) {
		return true
	}
	bin, ok := v.(*ssa.BinOp)
	if !ok || depth > 3 {
		return false
	}
	switch bin.Op {
	case token.MUL, token.QUO, token.SHL, token.SHR:
	default:
		return false
	}
	if _, ok := bin.Y.(*ssa.Const); ok {
		return scaledSizeOf(bin.X, obj, depth+1)
	}
	if _, ok := bin.X.(*ssa.Const); ok {
		return scaledSizeOf(bin.Y, obj, depth+1)
	}
	return false
}

// bareReturn reports whether b does nothing but return (or jump to a block
// that does).
func bareReturn(b *ssa.BasicBlock) bool {
	for i := 0; i < 3 && b != nil; i++ {
		if len(b.Instrs) != 1 {
			return false
		}
		switch b.Instrs[0].(type) {
		case *ssa.Return:
			return true
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return false
		}
	}
	return false
}

// reaches reports whether some path from the entry of fn where the boolean
// flag is when reaches one of instrs.
func reaches(fn *ssa.Function, instrs []ssa.Instruction, flag ssa.Value, when bool) bool {
	at := blocksOf(instrs)
	return searchBlocks(fn, at, func(b *ssa.BasicBlock) []*ssa.BasicBlock {
		return flagSuccs(b, flag, when)
	}, func(b *ssa.BasicBlock) bool { return at[b] })
}

// blocksOf returns the set of blocks of instrs.
func blocksOf(instrs []ssa.Instruction) map[*ssa.BasicBlock]bool {
	at := map[*ssa.BasicBlock]bool{}
	for _, instr := range instrs {
		at[instr.Block()] = true
	}
	return at
}

// searchBlocks reports whether a block for which found is true can be
// reached from the entry of fn, following succs and going no further than
// the blocks in stop.
func searchBlocks(fn *ssa.Function, stop map[*ssa.BasicBlock]bool, succs func(*ssa.BasicBlock) []*ssa.BasicBlock, found func(*ssa.BasicBlock) bool) bool {
	if len(fn.Blocks) == 0 {
		return false
	}
	return searchFrom(fn.Blocks[0], stop, succs, found)
}

// searchFrom is searchBlocks from the block start.
func searchFrom(start *ssa.BasicBlock, stop map[*ssa.BasicBlock]bool, succs func(*ssa.BasicBlock) []*ssa.BasicBlock, found func(*ssa.BasicBlock) bool) bool {
	seen := map[*ssa.BasicBlock]bool{start: true}
	work := []*ssa.BasicBlock{start}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if found(b) {
			return true
		}
		if stop[b] {
			continue
		}
		for _, s := range succs(b) {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// flagSuccs returns the successors of b, only the one the boolean flag
// leads to when it is when if b branches on it (flag may be nil).
func flagSuccs(b *ssa.BasicBlock, flag ssa.Value, when bool) []*ssa.BasicBlock {
	succs := b.Succs
	if ifi, ok := lastInstr(b).(*ssa.If); ok && len(succs) == 2 && flag != nil && isFlag(ifi.Cond, flag) {
		if v, _ := flagValue(ifi.Cond, flag, when); v {
			return succs[:1]
		}
		return succs[1:]
	}
	return succs
}

// isFlag reports whether cond is flag, a load of it, or its negation.
func isFlag(cond, flag ssa.Value) bool {
	_, ok := flagValue(cond, flag, true)
	return ok
}

// flagValue returns the value of cond when flag is when: cond is flag (or
// the load of a captured flag), or !cond of one.
func flagValue(cond, flag ssa.Value, when bool) (bool, bool) {
	switch x := cond.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			v, ok := flagValue(x.X, flag, when)
			return !v, ok
		}
		if x.Op == token.MUL && x.X == flag {
			return when, true
		}
	}
	return when, cond == flag
}

// boolGuard reports whether the put instr in fn happens on every path where
// the boolean free variable q is when.
func boolGuard(fn *ssa.Function, instr ssa.Instruction, obj ssa.Value, q *ssa.FreeVar) (when, ok bool) {
	if !isBool(q.Type()) && !isBoolPtr(q.Type()) {
		return false, false
	}
	for _, w := range []bool{true, false} {
		if mustPass(fn, []ssa.Instruction{instr}, obj, q, w) {
			return w, true
		}
	}
	return false, false
}

// isBoolPtr reports whether t is *bool (a captured boolean variable).
func isBoolPtr(t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	return ok && isBool(p.Elem())
}

// isNilCheckOf reports whether bin compares obj (or a load of it) with nil.
func isNilCheckOf(bin *ssa.BinOp, obj ssa.Value) bool {
	if bin.Op != token.EQL && bin.Op != token.NEQ {
		return false
	}
	return isObj(bin.X, obj) && isNil(bin.Y) || isObj(bin.Y, obj) && isNil(bin.X)
}

// isObj reports whether v is obj, a load of it, or obj converted.
func isObj(v, obj ssa.Value) bool {
	if v == obj {
		return true
	}
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == obj {
		return true
	}
	r := rootOf(v).v
	return r == obj || sameLoc(r, obj) // another load of the same field: if w.zr != nil { put(w.zr) }
}

// sizeGuard reports whether bin compares the size of obj (cap, len, Cap or
// Len of it, or of *obj for a pooled *[]T) with a bound that is a constant
// or a package-level variable, as a guard that drops huge buffers does. If
// so, small is the index of the successor of the If on bin that is taken
// when the size is within the bound: 0 for the true branch, 1 for the false.
func sizeGuard(bin *ssa.BinOp, obj ssa.Value) (small int, ok bool) {
	var lessTrue bool // the true branch holds when the left operand is the smaller
	switch bin.Op {
	case token.LSS, token.LEQ:
		lessTrue = true
	case token.GTR, token.GEQ:
		lessTrue = false
	default:
		return 0, false
	}
	var sizeLeft bool
	switch {
	case isSizeOf(bin.X, obj) && (isBound(bin.Y) || poolBound(bin.Y, obj) || namedBound(bin.Y)):
		sizeLeft = true
	case isSizeOf(bin.Y, obj) && (isBound(bin.X) || poolBound(bin.X, obj) || namedBound(bin.X)):
		sizeLeft = false
	default:
		return 0, false
	}
	if sizeLeft == lessTrue {
		return 0, true
	}
	return 1, true
}

// isCapOf reports whether v is the builtin cap of obj or of a part of it.
func isCapOf(v, obj ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	bi, ok := call.Call.Value.(*ssa.Builtin)
	return ok && bi.Name() == "cap" && len(call.Call.Args) == 1 && sizedPart(call.Call.Args[0], obj)
}

// isSizeOf reports whether v is cap(obj), len(obj), obj.Cap() or obj.Len(),
// possibly of *obj and possibly converted.
func isSizeOf(v, obj ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	of := func(x ssa.Value) bool {
		// enc.Buffer().Cap() through an interface's getter of the
		// object's buffer (m3db/m3metrics#76's fix).
		return sizedPart(x, obj) || sizedPart(invokeGetterRecv(x), obj)
	}
	com := &call.Call
	if com.IsInvoke() {
		name := com.Method.Name()
		return (name == "Cap" || name == "Len") && of(com.Value)
	}
	if bi, ok := com.Value.(*ssa.Builtin); ok {
		if bi.Name() != "cap" && bi.Name() != "len" || len(com.Args) != 1 {
			return false
		}
		// cap(b.Bytes()) with a getter returning b's buffer field
		// (istio/istio#8361's PutBuffer).
		return of(com.Args[0]) || of(getterReceiver(com.Args[0]))
	}
	callee := com.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(com.Args) != 1 {
		return false
	}
	name := callee.Name()
	return (name == "Cap" || name == "Len") && of(com.Args[0])
}

// invokeGetterRecv returns the interface value of v when v calls a method
// of it with no arguments that returns a pointer (enc.Buffer()), else nil.
func invokeGetterRecv(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok || !call.Call.IsInvoke() || len(call.Call.Args) != 0 || !isPointer(call.Type()) {
		return nil
	}
	return call.Call.Value
}

// getterReceiver returns the receiver of v when v calls a method whose
// body only returns a field of its receiver (func (b *Buffer) Bytes()
// []byte { return b.buf }), else nil.
func getterReceiver(v ssa.Value) ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok || len(call.Call.Args) != 1 {
		return nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || callee.Signature.Recv() == nil || len(callee.Params) != 1 || len(callee.Blocks) != 1 {
		return nil
	}
	ret, ok := lastInstr(callee.Blocks[0]).(*ssa.Return)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	ld, ok := ret.Results[0].(*ssa.UnOp)
	if !ok || ld.Op != token.MUL {
		return nil
	}
	if fa, ok := ld.X.(*ssa.FieldAddr); ok && fa.X == callee.Params[0] {
		return call.Call.Args[0]
	}
	return nil
}

// sizedPart reports whether x, whose size a guard compares, is obj or part
// of it: obj loaded, converted or sliced, a field of it (p.buf of a pooled
// *printer), or a local variable that holds obj (a parameter whose address
// is taken: bs = bs[:0]; pool.Put(&bs)).
func sizedPart(x, obj ssa.Value) bool {
	for i := 0; x != nil && i < 8; i++ {
		if isObj(x, obj) {
			return true
		}
		switch v := x.(type) {
		case *ssa.UnOp:
			if v.Op != token.MUL {
				return false
			}
			if a, ok := v.X.(*ssa.Alloc); ok {
				return holds(a, obj)
			}
			x = v.X
		case *ssa.FieldAddr:
			x = v.X
		case *ssa.Field:
			x = v.X
		case *ssa.Slice:
			x = v.X
		case *ssa.ChangeType:
			x = v.X
		default:
			return false
		}
	}
	return false
}

// holds reports whether the local variable a is only ever assigned obj or
// a re-slice of what it holds.
func holds(a *ssa.Alloc, obj ssa.Value) bool {
	refs := a.Referrers()
	if refs == nil {
		return false
	}
	stored := false
	for _, ref := range *refs {
		st, ok := ref.(*ssa.Store)
		if !ok || st.Addr != a {
			continue
		}
		v := unslice(st.Val)
		if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == a {
			continue // bs = bs[:0]
		}
		if !isObj(v, obj) {
			return false
		}
		stored = true
	}
	return stored
}

// interiorOf reports whether v is the address of a field of the object p
// points to, or of a field or array element within one (&p.v, &p.a[i].x).
func interiorOf(v, p ssa.Value) bool {
	for i := 0; i < 8; i++ {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			if x.X == p {
				return true
			}
			v = x.X
		case *ssa.IndexAddr:
			if _, ok := x.X.Type().Underlying().(*types.Pointer); !ok {
				return false // an element of a slice: its own backing array
			}
			v = x.X
		default:
			return false
		}
	}
	return false
}

// poolBound reports whether v is an integer field of another parameter
// than obj, the pool's own setting in a wrapper method (if cap(*b) >
// p.maxSize { return } in vitess's bucketPool.Put: dolthub/vitess#399),
// possibly converted.
func poolBound(v, obj ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	_, _, fa := fieldChain(v)
	if fa == nil {
		return false
	}
	prm, ok := fa.X.(*ssa.Parameter)
	if !ok || prm == obj || sizedPart(prm, obj) {
		return false
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// isBound reports whether v is a constant or the value of a package-level
// variable, possibly converted.
func isBound(v ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	switch x := v.(type) {
	case *ssa.Const:
		return !x.IsNil()
	case *ssa.UnOp:
		return x.Op == token.MUL && globalOf(x.X) != nil
	}
	return false
}

// boundName matches the names of settings that bound a size.
var boundName = regexp.MustCompile(`(?i)max|limit|threshold|bound`)

// namedBound reports whether v is read from a setting named as a bound: a
// parameter, a field or the result of a getter without arguments called
// MaxPooled, limit, BufferSizeLimit... (buf.Cap() <
// rec.Logger().Logr().MaxPooledFormatBuffer: mattermost/logr 0c93e63). A
// size compared with another value (cap(buf) < n of a needed size n) says
// nothing about which buffers the pool keeps.
func namedBound(v ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	name := ""
	switch x := v.(type) {
	case *ssa.Parameter:
		name = x.Name()
	case *ssa.FreeVar:
		name = x.Name()
	case *ssa.Field:
		if st, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			name = st.Field(x.Field).Name()
		}
	case *ssa.UnOp:
		if x.Op != token.MUL {
			return false
		}
		switch y := x.X.(type) {
		case *ssa.FieldAddr:
			name = fieldName(y)
		case *ssa.FreeVar: // a variable captured by reference
			name = y.Name()
		case *ssa.Alloc:
			name = y.Comment
		}
	case *ssa.Call:
		if len(x.Call.Args) > 0 && !x.Call.IsInvoke() {
			if x.Call.Signature().Recv() == nil || len(x.Call.Args) > 1 {
				return false
			}
		}
		if f := x.Call.StaticCallee(); f != nil {
			name = f.Name()
		} else if x.Call.IsInvoke() && len(x.Call.Args) == 0 {
			name = x.Call.Method.Name()
		}
	}
	return name != "" && boundName.MatchString(name)
}

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// lastInstr returns the control instruction that ends b, or nil.
func lastInstr(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	return b.Instrs[len(b.Instrs)-1]
}

// sizeGuarded reports whether every branch of fn on the way to the put
// instructions puts tests only the put parameter obj: whether it is nil,
// its size, and values computed from those and from constants and
// package-level variables (a size class: pools[class(cap(b))]). Such a
// wrapper puts every object of ordinary size, and drops only those it
// will not pool (ffjson's Pool(b), which skips nil and small slices), so
// a use after it is a use after a Put. A branch on anything else, such as
// a flag or a reference count, makes the Put depend on state.
func sizeGuarded(fn *ssa.Function, puts []ssa.Instruction, obj ssa.Value) bool {
	if len(puts) == 0 {
		return false
	}
	seen := map[ssa.Value]bool{}
	for b := range blocksBefore(puts) {
		switch x := lastInstr(b).(type) {
		case *ssa.If:
			// A test of the object's size that leads to a misuse exit
			// (if cap(buf) != 1<<b { return errors.New("incorrect
			// buffer size") }, a panic) is no choice to keep the object:
			// a caller that gives a buffer the pool never handed out is
			// wrong either way (Dreamacro/clash#805's allocator). An
			// error on another condition (a failed write) is an outcome
			// the caller handles, object in hand (moby/moby#52407).
			if !ofSize(x.Cond, obj, seen, 0) && !(sizeTest(x.Cond, obj) && (misuseExit(b.Succs[0]) || misuseExit(b.Succs[1]))) {
				return false
			}
		case *ssa.Return, *ssa.Jump:
		default:
			return false
		}
	}
	return true
}

// sizeTest reports whether cond compares the size of obj with something.
func sizeTest(cond, obj ssa.Value) bool {
	bin, ok := cond.(*ssa.BinOp)
	return ok && (isSizeOf(bin.X, obj) || isSizeOf(bin.Y, obj))
}

// misuseExit reports whether b ends its function on a misuse: a panic, or
// a return whose last result is an error made there.
func misuseExit(b *ssa.BasicBlock) bool {
	switch x := lastInstr(b).(type) {
	case *ssa.Panic:
		return true
	case *ssa.Return:
		if len(x.Results) == 0 {
			return false
		}
		last := x.Results[len(x.Results)-1]
		return isErrorType(last.Type()) && newError(last)
	}
	return false
}

// branchesBefore reports whether every block from which one of the put
// instructions can be reached ends in a return, a jump, or an If whose
// condition test accepts; it also counts those Ifs. A panic or another
// terminator on the way fails.
func branchesBefore(puts []ssa.Instruction, test func(cond ssa.Value) bool) (ifs int, ok bool) {
	for b := range blocksBefore(puts) {
		switch x := lastInstr(b).(type) {
		case *ssa.If:
			if !test(x.Cond) {
				return ifs, false
			}
			ifs++
		case *ssa.Return, *ssa.Jump:
		default:
			return ifs, false
		}
	}
	return ifs, true
}

// heldObj reports whether v is obj, or a load of a local variable that
// only ever holds obj (b = b[:0] of a parameter whose address is taken).
func heldObj(v, obj ssa.Value) bool {
	if isObj(v, obj) {
		return true
	}
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return false
	}
	a, ok := u.X.(*ssa.Alloc)
	return ok && holds(a, obj)
}

// unslice returns v without the reslicings on top of it (b[:0][:n] is b).
func unslice(v ssa.Value) ssa.Value {
	for {
		sl, ok := v.(*ssa.Slice)
		if !ok {
			return v
		}
		v = sl.X
	}
}

// blocksBefore returns the blocks from which one of instrs can be reached
// (their own blocks included).
func blocksBefore(instrs []ssa.Instruction) map[*ssa.BasicBlock]bool {
	before := map[*ssa.BasicBlock]bool{}
	var work []*ssa.BasicBlock
	for b := range blocksOf(instrs) {
		before[b] = true
		work = append(work, b)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for _, p := range b.Preds {
			if !before[p] {
				before[p] = true
				work = append(work, p)
			}
		}
	}
	return before
}

// ofSize reports whether v is computed only from the nil-ness or the size
// of obj, constants and package-level variables (see sizeGuarded).
func ofSize(v, obj ssa.Value, seen map[ssa.Value]bool, depth int) bool {
	if depth > 12 {
		return false
	}
	if seen[v] {
		return true // a loop's phi: the other edges decide
	}
	seen[v] = true
	if isSizeOf(v, obj) {
		return true
	}
	rec := func(x ssa.Value) bool { return ofSize(x, obj, seen, depth+1) }
	switch x := v.(type) {
	case *ssa.Const, *ssa.Global:
		return true
	case *ssa.BinOp:
		if (x.Op == token.EQL || x.Op == token.NEQ) && (isNil(x.X) && heldObj(x.Y, obj) || isNil(x.Y) && heldObj(x.X, obj)) {
			return true
		}
		if (x.Op == token.EQL || x.Op == token.NEQ) && (isCapOf(x.X, obj) && isZeroConst(x.Y) || isCapOf(x.Y, obj) && isZeroConst(x.X)) {
			return true // cap(buf) == 0: nothing to put, like a nil check
		}
		if (x.Op == token.EQL || x.Op == token.NEQ) && (isSizeOf(x.X, obj) || isSizeOf(x.Y, obj)) {
			// if len(c.buf) == 0: a state (empty), not a bound. Nor is
			// cap(buf) == size a bound: a size-class allocator that puts
			// only buffers of its classes (switch cap(b) { case 512: ... })
			// keeps the others, so a call of it may not put (tried for
			// MetaCubeX/mihomo#1286: it made nats-server's nbPoolPut a
			// Put and drew a false useafterput there).
			return false
		}
		return rec(x.X) && rec(x.Y)
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if ia, ok := x.X.(*ssa.IndexAddr); ok {
				return rec(ia) // a size-class table: poolSize[i]
			}
			return globalOf(x.X) != nil || poolBound(x, obj)
		}
		return rec(x.X)
	case *ssa.Convert:
		return rec(x.X)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !rec(e) {
				return false
			}
		}
		return true
	case *ssa.Extract:
		return rec(x.Tuple)
	case *ssa.Lookup:
		return rec(x.X) && rec(x.Index)
	case *ssa.IndexAddr:
		return rec(x.X) && rec(x.Index)
	case *ssa.Call:
		// A plain function of sizes (a size-class computation).
		if x.Call.IsInvoke() || x.Call.StaticCallee() == nil || x.Call.Signature().Recv() != nil {
			return false
		}
		for _, a := range x.Call.Args {
			if !rec(a) {
				return false
			}
		}
		return true
	}
	return false
}

// fieldGuard returns the index of a bool field of obj (r.closed) such that
// fn reaches one of the put instructions on every path where that field
// reads false.
func fieldGuard(fn *ssa.Function, instrs []ssa.Instruction, obj ssa.Value) (int, bool) {
	if len(instrs) == 0 {
		return 0, false
	}
	cands := map[int]bool{}
	for _, b := range fn.Blocks {
		if ifi, ok := lastInstr(b).(*ssa.If); ok {
			if g, _, ok := fieldFlag(ifi.Cond, obj); ok {
				cands[g] = true
			}
		}
	}
	at := blocksOf(instrs)
	// The objects the instructions put (a := r.arena; ...; Put(a)): their
	// nil checks and size guards are not state, as in mustPass.
	putObjs := putObjects(instrs)
	for g := range cands {
		returns := searchBlocks(fn, at, func(b *ssa.BasicBlock) []*ssa.BasicBlock {
			if ifi, ok := lastInstr(b).(*ssa.If); ok && len(b.Succs) == 2 {
				if h, neg, ok := fieldFlag(ifi.Cond, obj); ok && h == g {
					if neg {
						return b.Succs[:1] // if !r.closed: the true side
					}
					return b.Succs[1:]
				}
			}
			return guardSuccs(b, b.Succs, putObjs...)
		}, func(b *ssa.BasicBlock) bool {
			_, ok := lastInstr(b).(*ssa.Return)
			return !at[b] && ok
		})
		if !returns {
			return g, true
		}
	}
	return 0, false
}

// fieldFlag reports whether cond is a load of a bool field of obj, or its
// negation (neg), and which field.
func fieldFlag(cond, obj ssa.Value) (field int, neg, ok bool) {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		f, _, ok := fieldFlag(u.X, obj)
		return f, true, ok
	}
	u, ok := cond.(*ssa.UnOp)
	if !ok || u.Op != token.MUL || !isBool(u.Type()) {
		return 0, false, false
	}
	fa, ok := u.X.(*ssa.FieldAddr)
	if !ok || fa.X != obj {
		return 0, false, false
	}
	return fa.Field, false, true
}

// storesField reports whether fn stores into field f of obj.
func storesField(fn *ssa.Function, obj ssa.Value, f int) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && sameLoc(fa.X, obj) && fa.Field == f {
					return true
				}
			}
		}
	}
	return false
}

// reuseGuarded reports whether a bool field of obj, a parameter of fn,
// alone decides whether fn reaches the Puts instrs, fn sets that field, and
// the package clears it (paramPut.reuse).
func (c *checker) reuseGuarded(fn *ssa.Function, instrs []ssa.Instruction, obj ssa.Value) bool {
	g, ok := fieldGuard(fn, instrs, obj)
	return ok && storesField(fn, obj, g) && c.clearedOnReuse(obj.Type(), g)
}

// clearedOnReuse reports whether some function of the package stores false
// into field f of the struct t points to (a Reset that sets closed = false),
// or zeroes the whole struct (*e = encoder{}).
func (c *checker) clearedOnReuse(t types.Type, f int) bool {
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	if !ok {
		return false
	}
	if c.cleared == nil {
		c.cleared = map[[2]any]bool{}
		c.eachStore(func(_ *ssa.Function, st *ssa.Store) {
			k, ok := st.Val.(*ssa.Const)
			if !ok || k.Value != nil && (k.Value.Kind() != constant.Bool || constant.BoolVal(k.Value)) {
				return // not false, nil or a zero struct
			}
			at, field := st.Addr.Type(), -1
			if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
				at, field = fa.X.Type(), fa.Field
			}
			if sn, ok := types.Unalias(derefType(at)).(*types.Named); ok {
				c.cleared[[2]any{sn.Origin().Obj(), field}] = true
			}
		})
	}
	o := n.Origin().Obj()
	return c.cleared[[2]any{o, f}] || c.cleared[[2]any{o, -1}]
}

// refGuarded reports whether every branch of fn on the way to the put
// instructions compares with a constant the decremented reference count of
// obj: if atomic.AddInt32(&m.refs, -1) > 0 { return }, m.refs.Add(-1), or
// if m.refs-1 > 0. (A reload after m.refs-- is not recognised.)
func refGuarded(fn *ssa.Function, puts []ssa.Instruction, obj ssa.Value) bool {
	if len(puts) == 0 {
		return false
	}
	ifs, ok := branchesBefore(puts, func(cond ssa.Value) bool {
		bin, ok := cond.(*ssa.BinOp)
		return ok && (decremented(bin.X, obj) && isConstInt(bin.Y) || decremented(bin.Y, obj) && isConstInt(bin.X))
	})
	return ok && ifs > 0
}

// decremented reports whether v is the result of an atomic add of a
// negative constant to a field of obj (atomic.AddInt32(&m.refs, -1),
// m.refs.Add(-1)), or a field of obj minus a constant (m.refs - 1).
func decremented(v, obj ssa.Value) bool {
	if cv, ok := v.(*ssa.Convert); ok {
		v = cv.X
	}
	switch x := v.(type) {
	case *ssa.Call:
		return atomicAddSign(x, obj) < 0
	case *ssa.BinOp:
		if x.Op != token.SUB || !isConstInt(x.Y) {
			return false
		}
		if ld, ok := x.X.(*ssa.UnOp); ok && ld.Op == token.MUL {
			return fieldOfObj(ld.X, obj)
		}
	}
	return false
}

// atomicAddSign returns the sign of the constant that call, a sync/atomic
// Add (function or method), adds to a field of obj, or 0 if call is not
// one.
func atomicAddSign(call *ssa.Call, obj ssa.Value) int {
	com := &call.Call
	callee := com.StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "sync/atomic" || !strings.HasPrefix(callee.Name(), "Add") || len(com.Args) != 2 {
		return 0
	}
	k, ok := com.Args[1].(*ssa.Const)
	if !ok || k.Value == nil || !fieldOfObj(com.Args[0], obj) {
		return 0
	}
	return constant.Sign(k.Value)
}

// fieldOfObj reports whether addr is the address of a field of obj (or of
// a field of a field).
func fieldOfObj(addr, obj ssa.Value) bool {
	for i := 0; i < 4; i++ {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		if fa.X == obj {
			return true
		}
		addr = fa.X
	}
	return false
}

// isConstInt reports whether v is an integer constant.
func isConstInt(v ssa.Value) bool {
	_, ok := constInt(v)
	return ok
}

// selfOf returns, for the result of a method of the package that returns
// its receiver on every path (a builder's e.Stack(), which returns e), the
// receiver it was called on, through such chains; otherwise v. A Put of
// e.Stack() is then a Put of e (zerolog's events finished twice,
// Altinity/clickhouse-backup#670).
func selfOf(v ssa.Value) ssa.Value {
	for i := 0; i < 4; i++ {
		call, ok := v.(*ssa.Call)
		if !ok || call.Call.IsInvoke() || len(call.Call.Args) == 0 {
			return v
		}
		g := call.Call.StaticCallee()
		if g == nil || g.Signature.Recv() == nil || len(g.Params) == 0 || len(g.Blocks) == 0 || g.Signature.Results().Len() != 1 {
			return v
		}
		any := false
		for _, b := range g.Blocks {
			if ret, ok := lastInstr(b).(*ssa.Return); ok {
				if len(ret.Results) != 1 || ret.Results[0] != ssa.Value(g.Params[0]) {
					return v
				}
				any = true
			}
		}
		if !any {
			return v
		}
		v = call.Call.Args[0]
	}
	return v
}
