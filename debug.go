package pool

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/poolkit/pool/internal/pooldebug"
)

// Debug mode.
//
// POOLDEBUG, read at start-up, takes GODEBUG-style settings:
//
//	doubleput=1  Put of an object that is already idle in the pool is reported
//	             (default: panic with a message containing "double Put" and
//	             the type); works for pointer-shaped T and slices, so for
//	             bytepool too.
//	poison=1     bytepool fills each slice with a pattern on Put and checks it
//	             on Get: a write after Put is reported at that Get ("modified
//	             after Put", with the capacity).
//	leak=N       1 in N objects handed out by Get is tracked; one that becomes
//	             unreachable without being Put is reported once per call site
//	             with the stack of the Get (default: a line on stderr
//	             beginning "poolkit: leak:"). N=1 tracks everything.
//
// With every setting off, Get and Put read one global flag more than they
// would without debug support.

// SetDebug replaces the POOLDEBUG settings for the whole program and returns
// the previous ones; it also starts a new round of leak reports (each call
// site is reported again). Tests can write
//
//	defer pool.SetDebug(pool.SetDebug("doubleput=1"))
//
// The double-Put check covers objects Put after the call. SetDebug panics
// if settings does not parse, with a message beginning "pool.SetDebug:".
func SetDebug(settings string) (previous string) {
	s, err := pooldebug.Parse(settings)
	if err != nil {
		panic("pool.SetDebug: " + err.Error())
	}
	return pooldebug.Set(s)
}

// A Report describes a pool misuse found in debug mode.
type Report struct {
	Kind    string // "leak", "double Put", "modified after Put" or "Put of a sub-slice" (bytepool)
	Type    string // the pooled type, e.g. "*bytes.Buffer" or "[]byte"
	Message string // one line, as the default reporter would print it
	Stack   string // for leaks: the stack of the Get that handed the object out
}

// SetReporter routes debug reports to f, for example to the application's
// logger; nil restores the default (leaks on standard error, panics for the
// other kinds). With a reporter set, the operation that found the problem
// continues safely: a double Put or a poisoned slice is dropped instead of
// being cached or handed out. f may be called from any goroutine, including
// the runtime's cleanup goroutine, and must not block.
func SetReporter(f func(Report)) {
	if f == nil {
		pooldebug.Reporter.Store(nil)
		return
	}
	g := func(kind, typ, msg, stack string) {
		f(Report{Kind: kind, Type: typ, Message: msg, Stack: stack})
	}
	pooldebug.Reporter.Store(&g)
}

// debugState is a pool's debug bookkeeping; guarded by mu.
type debugState struct {
	mu      sync.Mutex
	epoch   uint64                  // pooldebug.Epoch when idle was last valid
	idle    map[uintptr]struct{}    // identities of objects idle in the pool (doubleput)
	tracked map[uintptr]*leakRecord // objects handed out and sampled for leak=N

	// filter counts the tracked objects by a hash of their identity, so
	// that with leak=N alone a Put can tell without taking mu that its
	// object is not tracked (the common case: N-1 in N).
	filter [256]atomic.Int32
}

// debug returns c's debug bookkeeping, creating it on first use.
func (c *core[T]) debug() *debugState {
	if d := c.dbg.Load(); d != nil {
		return d
	}
	c.dbg.CompareAndSwap(nil, new(debugState))
	return c.dbg.Load()
}

// filterIndex hashes an identity to a filter slot (Fibonacci hashing).
func filterIndex(id uintptr) int {
	return int(uint64(id>>4) * 0x9e3779b97f4a7c15 >> 56)
}

// leakRecord is what the cleanup of a tracked object reports.
type leakRecord struct {
	c     *debugState
	id    uintptr
	stack []uintptr
	stop  runtime.Cleanup
	typ   string
	epoch uint64
}

// leakSites records the call sites already reported, so that each leak is
// reported once per site and per SetDebug call.
var leakSites sync.Map // leakSite -> struct{}

type leakSite struct {
	pc    uintptr
	epoch uint64 // pooldebug.Epoch when the object was handed out
}

// identity returns the word that identifies x (its pointer, or its slice's
// data pointer), or 0 when T has no identity (non-pointer values, funcs,
// interfaces, nil, empty slices).
func (st *state[T]) identity(x *T) uintptr {
	if !st.hasIdentity {
		return 0
	}
	if st.isSlice && (*[3]uintptr)(unsafe.Pointer(x))[2] == 0 {
		return 0 // empty slices may all share one address
	}
	return *(*uintptr)(unsafe.Pointer(x))
}

// typeName is T's name in reports.
func typeName[T any]() string {
	t := reflect.TypeFor[T]()
	if t == reflect.TypeFor[[]byte]() {
		return "[]byte"
	}
	return t.String()
}

func (d *debugState) syncEpoch() {
	if e := pooldebug.Epoch.Load(); d.epoch != e {
		d.epoch = e
		clear(d.idle)
	}
}

// debugCheckPut runs Put's double-Put check for x, before Reset and Keep;
// it reports false if x must be dropped. It records nothing: debugMarkIdle
// does, once the hooks have run, so that a Put whose hook panics leaves no
// trace.
func (p *Pool[T]) debugCheckPut(st *state[T], x *T) bool {
	id := st.identity(x)
	if id == 0 || !pooldebug.Current().DoublePut {
		return true
	}
	d := st.c.debug()
	d.mu.Lock()
	d.syncEpoch()
	_, dup := d.idle[id]
	d.mu.Unlock()
	if dup {
		pooldebug.Report(pooldebug.KindDoublePut, typeName[T](), fmt.Sprintf(
			"pool.Pool.Put: double Put of %s%s: it is already idle in the pool",
			typeName[T](), describe(x)), "")
		return false
	}
	return true
}

// debugMarkIdle records that Put took x back (leak=N stops tracking it) and,
// if idle (x is about to be cached), that x is idle (doubleput).
func (p *Pool[T]) debugMarkIdle(st *state[T], x *T, idle bool) {
	id := st.identity(x)
	if id == 0 {
		return
	}
	set := pooldebug.Current()
	d := st.c.debug()
	markIdle := idle && set.DoublePut
	if !markIdle && d.filter[filterIndex(id)].Load() == 0 {
		return // x is not tracked: no lock
	}
	d.mu.Lock()
	d.syncEpoch()
	if r := d.tracked[id]; r != nil {
		r.stop.Stop()
		delete(d.tracked, id)
		d.filter[filterIndex(id)].Add(-1)
	}
	if markIdle {
		if d.idle == nil {
			d.idle = make(map[uintptr]struct{})
		}
		d.idle[id] = struct{}{}
	}
	d.mu.Unlock()
}

// describe adds the address, or the slice capacity, to a report.
func describe[T any](x *T) string {
	v := reflect.ValueOf(x).Elem()
	if v.Kind() == reflect.Slice {
		return fmt.Sprintf(" (cap %d, data %#x)", v.Cap(), *(*uintptr)(unsafe.Pointer(x)))
	}
	return fmt.Sprintf(" %#x", *(*uintptr)(unsafe.Pointer(x)))
}

// debugForget removes objects that leave the pool without a Get (dropped or
// released) from the idle set.
func (st *state[T]) debugForget(objs []T) {
	if !st.hasIdentity || len(objs) == 0 {
		return
	}
	d := st.c.debug()
	d.mu.Lock()
	for i := range objs {
		delete(d.idle, st.identity(&objs[i]))
	}
	d.mu.Unlock()
}

// debugGet runs Get's bookkeeping for x, handed out by a hit (hit) or by New.
func (p *Pool[T]) debugGet(st *state[T], x *T, hit bool) {
	id := st.identity(x)
	if id == 0 {
		return
	}
	set := pooldebug.Current()
	// Sample before taking the lock: with leak=N alone, N-1 Gets in N
	// cost one random number.
	sampled := set.Leak == 1 || set.Leak > 1 && rand.Uint64N(uint64(set.Leak)) == 0
	if !sampled && !set.DoublePut {
		return
	}
	d := st.c.debug()
	d.mu.Lock()
	d.syncEpoch()
	if hit {
		delete(d.idle, id)
	}
	if !sampled || d.tracked[id] != nil {
		d.mu.Unlock()
		return
	}
	r := &leakRecord{c: d, id: id, typ: typeName[T](), epoch: d.epoch}
	var pcs [32]uintptr
	r.stack = append([]uintptr(nil), pcs[:runtime.Callers(2, pcs[:])]...)
	obj := (*byte)(*(*unsafe.Pointer)(unsafe.Pointer(x))) // the object, or its slice's array
	r.stop = runtime.AddCleanup(obj, reportLeak, r)
	if d.tracked == nil {
		d.tracked = make(map[uintptr]*leakRecord)
	}
	d.tracked[id] = r
	d.filter[filterIndex(id)].Add(1)
	d.mu.Unlock()
}

// reportLeak runs when a tracked object became unreachable without a Put.
func reportLeak(r *leakRecord) {
	d := r.c
	d.mu.Lock()
	if d.tracked[r.id] == r {
		delete(d.tracked, r.id)
		d.filter[filterIndex(r.id)].Add(-1)
	}
	d.mu.Unlock()
	// The call site is the first frame outside poolkit's own packages.
	var b strings.Builder
	var site uintptr
	where := "unknown"
	frames := runtime.CallersFrames(r.stack)
	for {
		f, more := frames.Next()
		if site == 0 && !strings.HasPrefix(f.Function, "github.com/poolkit/pool.") &&
			!strings.HasPrefix(f.Function, "github.com/poolkit/pool/bytepool.") {
			site = f.PC
			where = fmt.Sprintf("%s (%s:%d)", f.Function, f.File, f.Line)
		}
		fmt.Fprintf(&b, "\t%s\n\t\t%s:%d\n", f.Function, f.File, f.Line)
		if !more {
			break
		}
	}
	if _, seen := leakSites.LoadOrStore(leakSite{site, r.epoch}, struct{}{}); seen {
		return
	}
	pooldebug.Report(pooldebug.KindLeak, r.typ, fmt.Sprintf(
		"%s handed out by Get at %s became unreachable without Put", r.typ, where), b.String())
}
