package poolvet

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// The names of the checks. Each is the Category of its diagnostics and the
// name of the flag that turns it off.
const (
	checkUseAfterPut  = "useafterput"
	checkDoublePut    = "doubleput"
	checkNonPointer   = "nonpointer"
	checkNoReset      = "noreset"
	checkUnbounded    = "unbounded"
	checkTypeMismatch = "typemismatch"
)

var checkDocs = []struct{ name, doc string }{
	{checkUseAfterPut, "report objects used after they went back to a pool"},
	{checkDoublePut, "report objects put into a pool twice"},
	{checkNonPointer, "report non-pointer values put into a pool that stores interfaces"},
	{checkNoReset, "report objects with a Reset method put back without being reset"},
	{checkUnbounded, "report growable buffers put into a pool without a capacity check"},
	{checkTypeMismatch, "report sync.Pool Get/Put types that differ from New's"},
}

// Analyzer reports misuse of sync.Pool, pool.Pool and bytepool.
var Analyzer = &analysis.Analyzer{
	Name:      "poolvet",
	Doc:       "report misuse of sync.Pool, pool.Pool and bytepool\n\nSee https://pkg.go.dev/github.com/poolkit/pool/poolvet.",
	URL:       "https://pkg.go.dev/github.com/poolkit/pool/poolvet",
	Run:       run,
	FactTypes: []analysis.Fact{new(wrapperFact)},
}

// enabled holds the value of the flag of each check.
var enabled = map[string]*bool{}

func init() {
	for _, c := range checkDocs {
		enabled[c.name] = Analyzer.Flags.Bool(c.name, true, c.doc)
	}
}

// checker holds the state of one run over one package.
// reportKey is a position and a check.
type reportKey struct {
	pos   token.Pos
	check string
}

type checker struct {
	pass     *analysis.Pass
	reported map[reportKey]bool // what report has reported
	funcs    []*ssa.Function    // source functions, including literals, in source order

	// sums holds the wrapper summary of each source function (keyed by the
	// generic origin for instances).
	sums map[*ssa.Function]*summary
	// byObj holds the same summaries by declared function, for calls of
	// method values and method expressions, which go through wrappers.
	byObj map[*types.Func]*summary

	// hooks records, for each package-level pool variable, which of the
	// fields New, Reset and Keep are assigned somewhere in the package.
	hooks map[*ssa.Global]map[string][]ssa.Value
	// ifaceGlobals maps a named interface of the package with a Get
	// method to the package-level sync.Pools converted to it, or to nil
	// when anything else is; built on first use (ifacePools).
	ifaceGlobals map[*types.TypeName][]*ssa.Global
	// closeWait maps a struct type to where a function puts one of its
	// objects after receiving from one of its channel fields; built on
	// first use (closeWaiters).
	closeWait map[*types.TypeName]token.Pos

	calls map[token.Pos]*ast.CallExpr // by Lparen; built on first use

	boxedTypes map[types.Type]bool // types converted to an interface in the package (true: to one with Close); built on first use (boxed)
	getsByPool map[any][]poolGet   // the Gets of each sync.Pool of the package, by poolID; built on first use (poolGets)

	// fieldNews holds, by poolID, the New functions stored into sync.Pool
	// fields of struct types of the package; built on first use.
	fieldNews map[any][]ssa.Value

	// appended holds, by struct type of the package, the slice fields that
	// some function appends to in place, and one such function's name;
	// built on first use.
	appended map[*types.TypeName]map[int]string
	// readGet caches readAfterReset, by reset method.
	readGet map[*ssa.Function]fieldSet
	// filled caches filledMaps.
	filled map[*types.TypeName]map[int]string
	// grown: grownFields, the fields appended to, with no exclusion.
	grown map[*types.TypeName]map[int]string
	// fieldBounds: fieldBoundsOf, the fields some Put bounds, by type.
	fieldBounds map[*types.TypeName][]fieldBound
	sticky      map[*types.TypeName]map[int]string      // stickyErrors, built on first use
	callSites   map[*ssa.Function][]ssa.CallInstruction // callSitesOf, built on first use

	// growing holds, for struct types of this package, a slice field that
	// a method appends an unbounded amount to, and that method's name;
	// built on first use.
	growing map[*types.TypeName][2]string

	// borrowed holds the {type name, field index} of the fields that a
	// function of the package sets to one of its parameters; built on
	// first use.
	borrowed map[[2]any]bool

	// sendPuts holds the channels whose receiver puts what it receives
	// (putChans); built on first use.
	sendPuts map[chanKey]token.Pos

	// impls holds the methods implementing each interface method of the
	// package (implsOf); built on first use.
	impls map[implKey][]*ssa.Function

	// guardedPuts holds, by named type, a Put of a pointer to it that a
	// size check guards (guardedPutOf); built on first use.
	guardedPuts map[*types.TypeName]token.Pos
	// funcFields holds the functions stored into each func-typed field
	// (by named type and field index); built on first use (fieldFuncs).
	funcFields map[fieldRef][]*ssa.Function

	// cleared holds the {type name, field index} of the fields that some
	// function of the package stores false or nil into ({type name, -1}:
	// the whole struct is zeroed); built on first use (clearedOnReuse).
	cleared map[[2]any]bool

	// sized holds the pools (by poolID) whose Get sites give the buffer a
	// size the caller chooses; built on first use.
	sized map[any]bool

	// withNew holds the pools (by poolID) that some code of the package
	// gives a New function, or copies a whole pool into; built on first
	// use.
	withNew map[any]bool

	// stale holds, by poolID, the fields that users of the pool read
	// before writing; fieldUses what functions do to the fields of their
	// parameters (stale.go). Built on first use.
	stale     map[any]staleRead
	fieldUses map[paramKey]fieldUse

	// attaches holds, by poolID, what users attach to the pool's objects
	// (retain.go); built on first use.
	attaches map[any][]attach

	// chanPoolSet holds the channels received from in a non-blocking
	// select, channel pools (chanpool.go); built on first use.
	chanPoolSet map[chanKey]bool

	// clearingGetter is the first getter of a *[]byte pool that clears
	// what it hands out (dirtyget.go); computed once.
	clearingGetter     *ssa.Function
	clearingGetterDone bool

	// reext holds the slice fields that some function re-slices within
	// their capacity without clearing (stale.go); built on first use.
	reext map[fieldRef]*ssa.Store
	// reextHelper holds the slice fields that a function of the package
	// is passed, re-slices one past the length and fills field by field
	// (reextendedByHelper); built on first use.
	reextHelper map[fieldRef]*ssa.Slice
	// freeLists caches freeListField by field.
	freeLists map[fieldRef]bool
	// seenSets: per pooled type, its set-like map field never emptied ("" if none).
	seenSets map[*types.TypeName]string
	// pooledSet and putSet cache pooledTypes and putDirectly; both are
	// built by buildPooledSets, putSet first (nil until then).
	pooledSet map[*types.TypeName]bool
	putSet    map[*types.TypeName]bool
	// pooledPtrSet caches pooledPtrTypes.
	pooledPtrSet map[*types.TypeName]bool
	// putGuards caches putGuardFields, by type.
	putGuards map[*types.TypeName]map[int]bool
	// arrays holds, by array pointer type, where the package fills such
	// arrays and whether it clears one whole (checkArrayNoReset).
	arrays map[string]arrayFacts
}

func run(pass *analysis.Pass) (any, error) {
	if !mayUsePools(pass) {
		return nil, nil
	}
	c := &checker{
		pass:  pass,
		sums:  map[*ssa.Function]*summary{},
		byObj: map[*types.Func]*summary{},
	}
	c.funcs = buildSSA(pass)
	c.collectHooks()
	c.summarize()
	c.exportFacts()

	for _, fn := range c.funcs {
		c.checkFunc(fn)
	}
	c.checkKeptFieldElsewhere()
	return nil, nil
}

// mayUsePools reports whether the package refers to a pool operation or to a
// wrapper exported by another package; if not, nothing can be reported and
// SSA need not be built.
func mayUsePools(pass *analysis.Pass) bool {
	for _, obj := range pass.TypesInfo.Uses {
		if tn, ok := obj.(*types.TypeName); ok && tn.Pkg() != nil && tn.Pkg().Path() == "sync" && tn.Name() == "Pool" {
			return true // a sync.Pool reached only through an interface (ifacepool.go)
		}
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
			continue
		}
		if primitiveOf(fn) != nil {
			return true
		}
		if pass.ImportObjectFact(fn.Origin(), new(wrapperFact)) {
			return true
		}
	}
	return sendsBufferNonBlocking(pass)
}

// sendsBufferNonBlocking reports whether a select of the package with a
// default case sends a *bytes.Buffer, a *strings.Builder, a []byte or a
// pointer to a struct of the package: the Put of a channel pool (chanpool.go).
func sendsBufferNonBlocking(pass *analysis.Pass) bool {
	found := false
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectStmt)
			if found || !ok {
				return !found
			}
			hasDefault, sends := false, false
			for _, cl := range sel.Body.List {
				cc, ok := cl.(*ast.CommClause)
				if !ok {
					continue
				}
				if cc.Comm == nil {
					hasDefault = true
				}
				if send, ok := cc.Comm.(*ast.SendStmt); ok {
					if t := pass.TypesInfo.TypeOf(send.Value); t != nil && (growable(t) && isBuilder(t) || isByteSlice(t) || localStructPtr(pass, t) || localInterface(pass, t)) {
						sends = true
					}
				}
			}
			found = hasDefault && sends
			return !found
		})
	}
	return found
}

// localStructPtr reports whether t is a pointer to a struct type declared
// in the package: what a channel pool of the package's objects sends.
func localStructPtr(pass *analysis.Pass, t types.Type) bool {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || n.Obj().Pkg() != pass.Pkg {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

// localInterface reports whether t is an interface type declared in the
// package: a channel pool of the package's objects behind an interface.
func localInterface(pass *analysis.Pass, t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() == pass.Pkg && types.IsInterface(n)
}

// buildSSA builds the SSA form of the package and returns its source
// functions, including function literals, in source order.
func buildSSA(pass *analysis.Pass) []*ssa.Function {
	prog := ssa.NewProgram(pass.Fset, ssa.BuilderMode(0))
	for _, p := range pass.Pkg.Imports() {
		prog.CreatePackage(p, nil, nil, true)
	}
	ssapkg := prog.CreatePackage(pass.Pkg, pass.Files, pass.TypesInfo, false)
	ssapkg.Build()

	var funcs []*ssa.Function
	var add func(f *ssa.Function)
	add = func(f *ssa.Function) {
		funcs = append(funcs, f)
		for _, anon := range f.AnonFuncs {
			add(anon)
		}
	}
	for _, file := range pass.Files {
		for _, decl := range file.Decls {
			d, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn, _ := pass.TypesInfo.Defs[d.Name].(*types.Func)
			if fn == nil {
				continue
			}
			if f := prog.FuncValue(fn); f != nil {
				add(f)
			}
		}
	}
	// Package initializers hold the composite literals of pool variables.
	if init := ssapkg.Func("init"); init != nil {
		add(init)
	}
	sort.SliceStable(funcs, func(i, j int) bool { return funcs[i].Pos() < funcs[j].Pos() })
	return funcs
}

// callExpr returns the call expression whose left parenthesis is at pos.
func (c *checker) callExpr(pos token.Pos) *ast.CallExpr {
	if c.calls == nil {
		c.calls = map[token.Pos]*ast.CallExpr{}
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					c.calls[call.Lparen] = call
				}
				return true
			})
		}
	}
	return c.calls[pos]
}

// report emits a diagnostic of the given check if the check is enabled.
// The message ends with the check's name in parentheses, so that a reader
// of go vet's output knows which -name=false flag turns it off.
func (c *checker) report(check string, pos token.Pos, fixes []analysis.SuggestedFix, format string, args ...any) {
	if !*enabled[check] {
		return
	}
	// One report per check and position: rules of one check that meet at
	// the same Put say the same thing to the user.
	k := reportKey{pos, check}
	if c.reported[k] {
		return
	}
	if c.reported == nil {
		c.reported = map[reportKey]bool{}
	}
	c.reported[k] = true
	c.pass.Report(analysis.Diagnostic{
		Pos:            pos,
		Category:       check,
		Message:        sprintf(format, args...) + " (" + check + ")",
		SuggestedFixes: fixes,
	})
}
