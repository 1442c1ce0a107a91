package advise

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// program is the user's code: the packages named on the command line, their
// test variants, and an index from file path to syntax and type information.
type program struct {
	fset   *token.FileSet
	files  map[string]*srcFile  // absolute file path -> file
	pkgs   map[string]*pkgFiles // package path (test variants merged) -> files
	names  map[string]bool      // package paths of the user's packages, with _test variants
	errors int                  // errors packages.Load reported
}

type srcFile struct {
	path string
	ast  *ast.File
	pkg  *packages.Package
}

type pkgFiles struct {
	byBase map[string]*srcFile // base name -> file, to map profiles built elsewhere
}

// loadProgram loads patterns (with tests) from dir.
func loadProgram(dir string, patterns []string) (*program, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
			packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:   dir,
		Tests: true,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("pooladvise: loading %s: %v", strings.Join(patterns, " "), err)
	}
	prog := &program{
		fset:  cfg.Fset,
		files: map[string]*srcFile{},
		pkgs:  map[string]*pkgFiles{},
		names: map[string]bool{},
	}
	if prog.fset == nil && len(pkgs) > 0 {
		prog.fset = pkgs[0].Fset
	}
	for _, p := range pkgs {
		if strings.HasSuffix(p.PkgPath, ".test") || p.Types == nil {
			continue // the generated test main
		}
		prog.errors += len(p.Errors)
		prog.fset = p.Fset
		// The runtime names the functions of a main package "main.f",
		// whatever its import path.
		runtimePath := p.PkgPath
		if p.Name == "main" {
			runtimePath = "main"
		}
		prog.names[runtimePath] = true
		pf := prog.pkgs[runtimePath]
		if pf == nil {
			pf = &pkgFiles{byBase: map[string]*srcFile{}}
			prog.pkgs[runtimePath] = pf
		}
		for _, f := range p.Syntax {
			name := p.Fset.File(f.Pos()).Name()
			abs, _ := filepath.Abs(name)
			// A test variant ("p [p.test]") holds the package's files plus
			// its tests: prefer it, it sees everything the tests see.
			if old := prog.files[abs]; old != nil && len(old.pkg.Syntax) >= len(p.Syntax) {
				pf.byBase[filepath.Base(abs)] = old
				continue
			}
			sf := &srcFile{path: abs, ast: f, pkg: p}
			prog.files[abs] = sf
			pf.byBase[filepath.Base(abs)] = sf
		}
	}
	if len(prog.files) == 0 {
		return nil, fmt.Errorf("pooladvise: no Go files in %s (run it inside your module, or name packages)", strings.Join(patterns, " "))
	}
	return prog, nil
}

// funcPkgPath returns the package path of a symbol name as the runtime
// writes it: "example.com/m/sub.(*T).M" -> "example.com/m/sub".
func funcPkgPath(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return name
	}
	return name[:slash+1+dot]
}

// shortFunc turns "example.com/m/sub.(*T).M" into "sub.(*T).M".
func shortFunc(name string) string {
	if i := strings.LastIndex(funcPkgPath(name), "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}

// lookup finds the user's source file for a frame: by absolute path, or,
// for a profile built on another machine (or with -trimpath), by package
// path and base name.
func (prog *program) lookup(fn, file string) *srcFile {
	if sf := prog.files[file]; sf != nil {
		return sf
	}
	pp := funcPkgPath(fn)
	if !prog.names[pp] {
		return nil
	}
	pf := prog.pkgs[pp]
	if pf == nil {
		return nil
	}
	return pf.byBase[filepath.Base(file)]
}

// lineInfo is what the source says about one line where the user's code
// allocates.
type lineInfo struct {
	file     *srcFile
	line     int
	typ      types.Type // what is allocated or constructed; nil when unknown
	expr     ast.Expr   // the allocating expression, nil when unknown
	kind     string     // "new", "make", "lit", "ctor", "append", "string", "func", "map", "var", "method"
	variable *types.Var // the variable holding the object, when there is one
	fn       *ast.FuncDecl
	lastUse  int         // last line that uses variable
	stored   string      // where the object is stored beyond the function, "" if nowhere
	returned int         // line of a return statement that hands out the object or memory of it
	param    int         // index of the parameter holding the object, -1 if none
	callee   *types.Func // the function the line calls, for kind ctor and method
}

// profName returns the name the runtime gives f in profiles:
// "pkg/path.F", "pkg/path.(*T).M", "pkg/path.T.M".
func profName(f *types.Func) string {
	sig, _ := f.Type().(*types.Signature)
	if f.Pkg() == nil {
		return f.Name()
	}
	if sig != nil && sig.Recv() != nil {
		rt := sig.Recv().Type()
		ptr := false
		if p, ok := rt.(*types.Pointer); ok {
			rt, ptr = p.Elem(), true
		}
		tn := ""
		if n, ok := rt.(*types.Named); ok {
			tn = n.Obj().Name()
		}
		if ptr {
			return f.Pkg().Path() + ".(*" + tn + ")." + f.Name()
		}
		return f.Pkg().Path() + "." + tn + "." + f.Name()
	}
	return f.Pkg().Path() + "." + f.Name()
}

// stripTypeArgs removes "[...]" from a profile symbol name.
func stripTypeArgs(s string) string {
	for {
		i := strings.Index(s, "[")
		if i < 0 {
			return s
		}
		depth, j := 0, i
		for ; j < len(s); j++ {
			if s[j] == '[' {
				depth++
			} else if s[j] == ']' {
				depth--
				if depth == 0 {
					break
				}
			}
		}
		if j == len(s) {
			return s[:i]
		}
		s = s[:i] + s[j+1:]
	}
}

// analyzeLine names what the user's line allocates. callee is the profile
// name of the frame the line called into ("" when the allocation is made by
// the line itself).
func (prog *program) analyzeLine(sf *srcFile, line int, callee string) *lineInfo {
	li := &lineInfo{file: sf, line: line, param: -1}
	info := sf.pkg.TypesInfo
	fset := sf.pkg.Fset
	onLine := func(n ast.Node) bool {
		return fset.Position(n.Pos()).Line <= line && fset.Position(n.End()).Line >= line
	}
	startsOn := func(n ast.Node) bool { return fset.Position(n.Pos()).Line == line }
	// The innermost function declaration around the line.
	for _, d := range sf.ast.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && onLine(fd) {
			li.fn = fd
		}
	}
	var cands []ast.Node
	var root ast.Node = sf.ast
	if li.fn != nil {
		root = li.fn
	}
	ast.Inspect(root, func(n ast.Node) bool {
		if n == nil || !onLine(n) {
			return false
		}
		switch n.(type) {
		case *ast.CallExpr, *ast.CompositeLit, *ast.UnaryExpr, *ast.FuncLit, *ast.BinaryExpr, *ast.ValueSpec, *ast.AssignStmt:
			if startsOn(n) || isCall(n) && fset.Position(n.(*ast.CallExpr).Lparen).Line == line {
				cands = append(cands, n)
			}
		}
		if _, ok := n.(*ast.FuncLit); ok && !startsOn(n) {
			return true // the line is inside a closure: look inside
		}
		return true
	})
	callee = stripTypeArgs(callee)
	if callee != "" && !strings.HasPrefix(callee, "runtime.") {
		// The line calls a function that allocates: find that call.
		for _, n := range cands {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				continue
			}
			if f := calledFunc(info, call); f != nil && stripTypeArgs(profName(f)) == callee {
				prog.describeCall(li, call)
				return li
			}
		}
		// The callee may be a wrapper that was inlined away: the first
		// non-builtin call on the line.
		for _, n := range cands {
			if call, ok := n.(*ast.CallExpr); ok && calledFunc(info, call) != nil {
				prog.describeCall(li, call)
				return li
			}
		}
	}
	// The line allocates itself: the allocating expressions, in order of
	// how much they say.
	best, bestRank := ast.Node(nil), 100
	for _, n := range cands {
		r := 100
		switch x := n.(type) {
		case *ast.UnaryExpr:
			if _, ok := x.X.(*ast.CompositeLit); ok && x.Op == token.AND {
				r = 0
			}
		case *ast.CallExpr:
			if b := builtinName(info, x); b == "new" || b == "make" {
				r = 1
			} else if b == "append" {
				r = 4
			} else if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				r = 5 // conversion: string(b), []byte(s)
			} else if calledFunc(info, x) != nil {
				r = 6
			}
		case *ast.CompositeLit:
			r = 2
		case *ast.FuncLit:
			r = 7
		case *ast.BinaryExpr:
			if t := info.TypeOf(x); t != nil && x.Op == token.ADD && isString(t) {
				r = 5
			}
		case *ast.ValueSpec:
			r = 3
		case *ast.AssignStmt:
			r = 8 // m[k] = v grows a map
		}
		if r < bestRank {
			best, bestRank = n, r
		}
	}
	switch x := best.(type) {
	case *ast.UnaryExpr:
		li.expr, li.kind, li.typ = x, "new", info.TypeOf(x)
	case *ast.CallExpr:
		switch builtinName(info, x) {
		case "new":
			li.expr, li.kind, li.typ = x, "new", info.TypeOf(x)
		case "make":
			li.expr, li.kind, li.typ = x, "make", info.TypeOf(x)
		case "append":
			li.expr, li.kind, li.typ = x, "append", info.TypeOf(x)
		default:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				li.expr, li.kind, li.typ = x, "convert", tv.Type
			} else {
				prog.describeCall(li, x)
				return li
			}
		}
	case *ast.CompositeLit:
		li.expr, li.kind, li.typ = x, "lit", info.TypeOf(x)
		if _, isStruct := under(li.typ).(*types.Struct); isStruct {
			li.typ = types.NewPointer(li.typ) // an escaping T{} is a heap *T
		}
	case *ast.FuncLit:
		li.expr, li.kind, li.typ = x, "func", info.TypeOf(x)
	case *ast.BinaryExpr:
		li.expr, li.kind, li.typ = x, "string", info.TypeOf(x)
	case *ast.ValueSpec:
		// var x T, moved to the heap because it escapes.
		if len(x.Names) > 0 {
			if v, ok := info.Defs[x.Names[0]].(*types.Var); ok {
				li.kind, li.variable, li.typ = "var", v, types.NewPointer(v.Type())
			}
		}
	case *ast.AssignStmt:
		// x = v where x is an interface: v is boxed (runtime.convT).
		for i, l := range x.Lhs {
			if i < len(x.Rhs) && len(x.Lhs) == len(x.Rhs) {
				lt, rt := info.TypeOf(l), info.TypeOf(x.Rhs[i])
				if lt != nil && rt != nil && types.IsInterface(lt) && !types.IsInterface(rt) {
					li.expr, li.kind, li.typ = x.Rhs[i], "convert", rt
				}
			}
		}
		for _, l := range x.Lhs {
			if ix, ok := l.(*ast.IndexExpr); ok {
				if t := info.TypeOf(ix.X); t != nil {
					if _, ok := under(t).(*types.Map); ok {
						li.expr, li.kind, li.typ = ix.X, "map", t
					}
				}
			}
		}
	}
	if li.expr != nil && li.variable == nil {
		li.variable = assignedVar(info, root, li.expr)
	}
	prog.findLastUse(li)
	prog.findStore(li)
	return li
}

func isCall(n ast.Node) bool { _, ok := n.(*ast.CallExpr); return ok }

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

func isString(t types.Type) bool {
	b, ok := under(t).(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

func builtinName(info *types.Info, call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// calledFunc returns the function or method a call statically calls.
func calledFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fun := ast.Unparen(call.Fun)
	if ix, ok := fun.(*ast.IndexExpr); ok {
		fun = ix.X
	} else if ix, ok := fun.(*ast.IndexListExpr); ok {
		fun = ix.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return nil
	}
	fn, _ := info.Uses[id].(*types.Func)
	if fn != nil {
		fn = fn.Origin()
	}
	return fn
}

// returnsAllocation reports whether a function's first result is memory it
// may have allocated: a pointer, slice, map, channel, function, string or
// interface.
func returnsAllocation(sig *types.Signature) types.Type {
	if sig.Results().Len() == 0 {
		return nil
	}
	t := sig.Results().At(0).Type()
	if types.Identical(t, types.Universe.Lookup("error").Type()) {
		return nil
	}
	switch u := under(t).(type) {
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return t
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return t
		}
	}
	return nil
}

// describeCall fills li from a call that allocates. A method call whose
// result is not the allocation (w.Write, buf.WriteString, zw.Close)
// allocates into its receiver, and a function call that returns no
// allocation (fmt.Fprintf(b, ...)) into its io.Writer argument: the
// allocation belongs to the line that constructed that object, when it is
// a local variable (or, through the stack, a parameter).
func (prog *program) describeCall(li *lineInfo, call *ast.CallExpr) {
	info := li.file.pkg.TypesInfo
	fn := calledFunc(info, call)
	li.expr = call
	if fn == nil {
		li.kind, li.typ = "call", nil
		return
	}
	li.callee = fn
	sig := fn.Type().(*types.Signature)
	if returnsAllocation(sig) == nil {
		li.kind = "method"
		var obj ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
			obj = sel.X
		} else {
			for _, a := range call.Args {
				if t := info.TypeOf(a); t != nil && isWriter(t) {
					obj = a
					break
				}
			}
		}
		if obj == nil {
			li.typ = nil // the callee allocates for itself
			return
		}
		obj = ast.Unparen(obj)
		if u, ok := obj.(*ast.UnaryExpr); ok && u.Op == token.AND {
			obj = ast.Unparen(u.X)
		}
		t := info.TypeOf(obj)
		if t != nil && !types.IsInterface(t) {
			if _, isPtr := under(t).(*types.Pointer); !isPtr {
				t = types.NewPointer(t)
			}
			li.typ = t
		}
		if id, ok := obj.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && !v.IsField() && v.Parent() != v.Pkg().Scope() {
				li.variable = v
				li.param = paramIndex(info, li.fn, v)
				if li.param < 0 {
					prog.moveToDefinition(li, v)
				}
			}
		}
		prog.findLastUse(li)
		prog.findStore(li)
		return
	}
	li.kind = "ctor"
	li.typ = info.TypeOf(call)
	if tup, ok := li.typ.(*types.Tuple); ok {
		li.typ = tup.At(0).Type()
	}
	var root ast.Node = li.file.ast
	if li.fn != nil {
		root = li.fn
	}
	li.variable = assignedVar(info, root, call)
	prog.findLastUse(li)
	prog.findStore(li)
}

// isWriter reports whether t has a Write([]byte) (int, error) method.
func isWriter(t types.Type) bool {
	ms := types.NewMethodSet(t)
	if _, isPtr := t.(*types.Pointer); !isPtr && !types.IsInterface(t) {
		ms = types.NewMethodSet(types.NewPointer(t))
	}
	for i := range ms.Len() {
		if f := ms.At(i).Obj(); f.Name() == "Write" {
			sig := f.Type().(*types.Signature)
			return sig.Params().Len() == 1 && isByteSlice(sig.Params().At(0).Type())
		}
	}
	return false
}

// paramIndex returns the index of v among fd's parameters, -1 if v is not
// one (the receiver is not counted: an object's own methods grow it).
func paramIndex(info *types.Info, fd *ast.FuncDecl, v *types.Var) int {
	if fd == nil {
		return -1
	}
	i := 0
	for _, f := range fd.Type.Params.List {
		if len(f.Names) == 0 {
			i++
		}
		for _, n := range f.Names {
			if info.Defs[n] == v {
				return i
			}
			i++
		}
	}
	return -1
}

// followParam re-attributes li, whose object is parameter li.param of its
// function, to the caller's argument: callerFile:callerLine calls calleeName.
// It returns nil when the caller's argument is not a local variable.
func (prog *program) followParam(li *lineInfo, caller *srcFile, line int, calleeName string) *lineInfo {
	ci := prog.analyzeCallTo(caller, line, calleeName)
	if ci == nil {
		return nil
	}
	info := caller.pkg.TypesInfo
	call := ci.expr.(*ast.CallExpr)
	if li.param >= len(call.Args) {
		return nil
	}
	arg := ast.Unparen(call.Args[li.param])
	if u, ok := arg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		arg = ast.Unparen(u.X)
	}
	id, ok := arg.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	out := &lineInfo{file: caller, line: line, fn: ci.fn, kind: "method", typ: li.typ, variable: v, expr: call}
	out.param = paramIndex(info, ci.fn, v)
	if out.param < 0 {
		prog.moveToDefinition(out, v)
	}
	prog.findLastUse(out)
	prog.findStore(out)
	return out
}

// analyzeCallTo finds the call on line of sf to the function named
// calleeName (profile style).
func (prog *program) analyzeCallTo(sf *srcFile, line int, calleeName string) *lineInfo {
	li := &lineInfo{file: sf, line: line, param: -1}
	info := sf.pkg.TypesInfo
	fset := sf.pkg.Fset
	for _, d := range sf.ast.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fset.Position(fd.Pos()).Line <= line && fset.Position(fd.End()).Line >= line {
			li.fn = fd
		}
	}
	if li.fn == nil {
		return nil
	}
	want := stripTypeArgs(calleeName)
	ast.Inspect(li.fn, func(n ast.Node) bool {
		if li.expr != nil {
			return false
		}
		if call, ok := n.(*ast.CallExpr); ok && fset.Position(call.Lparen).Line == line {
			if f := calledFunc(info, call); f != nil && stripTypeArgs(profName(f)) == want {
				li.expr = call
			}
		}
		return true
	})
	if li.expr == nil {
		return nil
	}
	return li
}

// moveToDefinition re-attributes li to the line that gave v its value, when
// v is defined in the same function by a constructor call, a composite
// literal, new or make, or declared with var.
func (prog *program) moveToDefinition(li *lineInfo, v *types.Var) {
	info := li.file.pkg.TypesInfo
	fset := li.file.pkg.Fset
	if li.fn == nil || v.Pos() < li.fn.Pos() || v.Pos() > li.fn.End() {
		return // a parameter or a variable of another function
	}
	var def ast.Expr
	var spec *ast.ValueSpec
	ast.Inspect(li.fn, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || info.ObjectOf(id) != v {
					continue
				}
				r := s.Rhs[0] // zw, err := gzip.NewWriterLevel(...)
				if len(s.Rhs) == len(s.Lhs) {
					r = s.Rhs[i]
				}
				// The definition, or else an assignment of new memory
				// (var b *T; if ... { b = x } else { b = &T{} }).
				if info.Defs[id] == v || allocates(info, r) {
					def = r
				}
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if info.Defs[id] == v {
					spec = s
					if i < len(s.Values) {
						def = s.Values[i]
					}
				}
			}
		}
		return def == nil
	})
	switch d := ast.Unparen(def).(type) {
	case *ast.CallExpr:
		if b := builtinName(info, d); b == "new" || b == "make" {
			li.kind = b
		} else if f := calledFunc(info, d); f != nil {
			li.kind = "ctor"
		} else {
			return
		}
		li.expr, li.line = d, fset.Position(d.Pos()).Line
		li.typ = info.TypeOf(d)
		if tup, ok := li.typ.(*types.Tuple); ok {
			li.typ = tup.At(0).Type()
		}
	case *ast.UnaryExpr:
		if _, ok := d.X.(*ast.CompositeLit); ok && d.Op == token.AND {
			li.expr, li.kind, li.line, li.typ = d, "new", fset.Position(d.Pos()).Line, info.TypeOf(d)
		}
	case nil:
		if spec != nil {
			li.kind, li.line = "var", fset.Position(spec.Pos()).Line
			li.typ = types.NewPointer(v.Type())
			if _, isPtr := under(v.Type()).(*types.Pointer); isPtr {
				li.typ = v.Type()
			}
		}
	}
}

// allocates reports whether e is an expression that allocates: &T{}, a
// call (other than a conversion).
func allocates(info *types.Info, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		_, ok := x.X.(*ast.CompositeLit)
		return ok && x.Op == token.AND
	case *ast.CallExpr:
		if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
			return false
		}
		return true
	}
	return false
}

// assignedVar returns the variable that expr is assigned to or defines, if any.
func assignedVar(info *types.Info, root ast.Node, expr ast.Expr) *types.Var {
	var v *types.Var
	ast.Inspect(root, func(n ast.Node) bool {
		if v != nil {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, r := range s.Rhs {
				if ast.Unparen(r) == expr && (len(s.Lhs) == len(s.Rhs) || i == 0) {
					if id, ok := s.Lhs[i].(*ast.Ident); ok {
						if o, ok := info.ObjectOf(id).(*types.Var); ok {
							v = o
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, r := range s.Values {
				if ast.Unparen(r) == expr && i < len(s.Names) {
					v, _ = info.Defs[s.Names[i]].(*types.Var)
				}
			}
		}
		return true
	})
	return v
}

// findStore sets li.stored when the object the line allocates is stored
// where it outlives the function: a map element, a struct field, a
// package-level variable, a channel. Such objects are retained by the
// program; a heap profile written after the container died (go test
// -memprofile writes it at exit) would not show them live.
func (prog *program) findStore(li *lineInfo) {
	if li.fn == nil {
		return
	}
	info := li.file.pkg.TypesInfo
	fset := li.file.pkg.Fset
	if li.kind == "map" {
		switch m := ast.Unparen(li.expr).(type) {
		case *ast.SelectorExpr:
			li.stored = fmt.Sprintf("the map %s grows: it is a container that keeps its elements", types.ExprString(m))
		case *ast.Ident:
			if v, ok := info.Uses[m].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				li.stored = fmt.Sprintf("the package-level map %s grows: it keeps its elements", m.Name)
			} else {
				li.stored = fmt.Sprintf("map growth: the map %s grows as elements are added and keeps them; presize it with make(%s, n), or clear and reuse it, rather than pool it", m.Name, types.TypeString(info.TypeOf(m), qualifier(li.file.pkg.Types)))
			}
		}
		return
	}
	isObj := func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if li.expr != nil && e == li.expr {
			return true
		}
		if id, ok := e.(*ast.Ident); ok && li.variable != nil && info.Uses[id] == li.variable {
			return true
		}
		if call, ok := e.(*ast.CallExpr); ok && builtinName(info, call) == "append" {
			for _, a := range call.Args[1:] {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && li.variable != nil && info.Uses[id] == li.variable {
					return true
				}
			}
		}
		return false
	}
	where := func(l ast.Expr) string {
		switch x := ast.Unparen(l).(type) {
		case *ast.IndexExpr:
			if _, ok := under(info.TypeOf(x.X)).(*types.Map); ok {
				return "a map element"
			}
		case *ast.SelectorExpr:
			if sel := info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
				return "a struct field"
			}
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && v.Parent() == v.Pkg().Scope() {
				return "a package-level variable"
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
				return "a package-level variable"
			}
		}
		return ""
	}
	ast.Inspect(li.fn, func(n ast.Node) bool {
		if li.stored != "" {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) != len(s.Rhs) {
				return true
			}
			for i, r := range s.Rhs {
				w := where(s.Lhs[i])
				if call, ok := ast.Unparen(r).(*ast.CallExpr); w == "a package-level variable" && !(ok && builtinName(info, call) == "append") {
					// sink = x: each store drops the previous object, as
					// benchmarks do to keep x on the heap; retained only
					// if appended to (list = append(list, x)).
					continue
				}
				if w != "" && isObj(r) {
					li.stored = fmt.Sprintf("stored in %s (%s, line %d)", w, types.ExprString(s.Lhs[i]), fset.Position(s.Pos()).Line)
				}
			}
		case *ast.ReturnStmt:
			for _, r := range s.Results {
				mentions := false
				ast.Inspect(r, func(n ast.Node) bool {
					if e, ok := n.(ast.Expr); ok && isObj(e) {
						mentions = true
					}
					return !mentions
				})
				if mentions && mayShare(info, r) && li.returned == 0 {
					li.returned = fset.Position(s.Pos()).Line
				}
			}
		case *ast.SendStmt:
			if isObj(s.Value) {
				li.stored = fmt.Sprintf("sent on a channel (line %d)", fset.Position(s.Pos()).Line)
			}
		}
		return true
	})
}

// findLastUse sets li.lastUse to the last line of li.fn that mentions
// li.variable.
func (prog *program) findLastUse(li *lineInfo) {
	if li.variable == nil || li.fn == nil {
		return
	}
	info := li.file.pkg.TypesInfo
	fset := li.file.pkg.Fset
	ast.Inspect(li.fn, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == li.variable {
			if l := fset.Position(id.Pos()).Line; l > li.lastUse {
				li.lastUse = l
			}
		}
		return true
	})
}

// qualifier writes package names, not paths; none for the package the
// code is in when local is true.
func qualifier(local *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if local != nil && p == local {
			return ""
		}
		return p.Name()
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// mayShare reports whether the returned expression r, which mentions the
// object, may hand out the object or memory of it: not a number or a bool,
// and not the error of a call (return zw.Close()).
func mayShare(info *types.Info, r ast.Expr) bool {
	t := info.TypeOf(r)
	if t == nil {
		return true
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsString == 0 {
		return false
	}
	if _, ok := ast.Unparen(r).(*ast.CallExpr); ok && types.Identical(t, types.Universe.Lookup("error").Type()) {
		return false
	}
	return true
}
