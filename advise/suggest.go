package advise

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"
	"unicode"
)

// suggest writes the code for a site's verdict: a pool.Pool declaration
// ready to paste and where to Get and Put, or the bytepool calls.
func suggest(s Site, li *lineInfo, a *siteAgg, p50, p90 int64) string {
	if li == nil || li.typ == nil {
		return ""
	}
	var local *types.Package
	if li.file.pkg.Types != nil {
		local = li.file.pkg.Types
	}
	q := qualifier(local)
	tstr := types.TypeString(li.typ, q)
	where := fmt.Sprintf("%s:%d", filepath.Base(li.file.path), li.line)
	if li.fn != nil {
		where += " (" + funcDeclName(li) + ")"
	}
	varName := "x"
	if li.variable != nil {
		varName = li.variable.Name()
	}
	putAt := ""
	if li.lastUse > 0 {
		putAt = fmt.Sprintf(" after its last use (line %d)", li.lastUse)
	}
	expr := ""
	if li.expr != nil {
		expr = types.ExprString(li.expr)
	}
	switch s.Verdict {
	case VerdictBytePool:
		if isByteSlice(li.typ) {
			n := "n"
			if call, ok := li.expr.(*ast.CallExpr); ok && li.kind == "make" && len(call.Args) >= 2 {
				n = types.ExprString(call.Args[len(call.Args)-1])
			}
			return fmt.Sprintf("// import \"github.com/poolkit/pool/bytepool\"\n"+
				"// at %s: instead of %s (sizes p50 %s, p90 %s):\n"+
				"%s := bytepool.Get(%s) // len %s; contents are not zeroed, cap rounded up to a size class\n"+
				"defer bytepool.Put(%s)  // or Put%s: %s and every slice of it must not be used after Put",
				where, orDash(expr), fmtBytes(float64(p50)), fmtBytes(float64(p90)), varName, n, n, varName, putAt, varName)
		}
		return fmt.Sprintf("// import \"github.com/poolkit/pool/bytepool\"\n"+
			"// at %s: instead of %s:\n"+
			"%s := bytepool.GetBuffer() // starts at the size the pool learned (p95 of past Buffers)\n"+
			"defer %s.Free()             // or Free%s: %s and %s.Bytes() must not be used after Free",
			where, orDash(expr), varName, varName, putAt, varName, varName)
	case VerdictPool:
	default:
		return ""
	}
	pname := poolName(li.typ, local)
	newExpr, resetArgs := newExpression(li, q, p90)
	var b strings.Builder
	fmt.Fprintf(&b, "// import \"github.com/poolkit/pool\"\n")
	fmt.Fprintf(&b, "var %s = pool.Pool[%s]{\n", pname, tstr)
	fmt.Fprintf(&b, "\tNew: func() %s { return %s },\n", tstr, newExpr)
	reset, after := resetHook(li.typ, q, resetArgs)
	if reset != "" {
		fmt.Fprintf(&b, "\tReset: %s,\n", reset)
	}
	if isBuffer(li.typ) {
		limit := roundLimit(4 * max(p90, 4096))
		fmt.Fprintf(&b, "\tKeep: func(b %s) bool { return b.Cap() <= %s }, // drop buffers that grew huge (go#23199)\n", tstr, limit)
	}
	fmt.Fprintf(&b, "}\n\n")
	fmt.Fprintf(&b, "// at %s: %s := %s.Get()", where, varName, pname)
	if after != "" {
		fmt.Fprintf(&b, "; %s", strings.ReplaceAll(after, "{x}", varName))
	}
	if expr != "" && li.kind != "var" {
		fmt.Fprintf(&b, " (instead of %s)", expr)
	}
	fmt.Fprintf(&b, "\n// then %s.Put(%s)%s; %s must not be used after Put", pname, varName, putAt, varName)
	if li.returned > 0 {
		fmt.Fprintf(&b, "\n// careful: line %d returns %s or memory of it: Put only where the caller is done with it", li.returned, varName)
	}
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "the allocation"
	}
	return s
}

func roundLimit(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d<<20", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%d<<20", (n+(1<<20)-1)>>20)
	default:
		return fmt.Sprintf("%d<<10", (n+1023)>>10)
	}
}

// poolName names the pool variable after the type: gzipWriterPool,
// bytesBufferPool, pointPool, bytesPool.
func poolName(t types.Type, local *types.Package) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	switch u := t.(type) {
	case *types.Named:
		name := u.Obj().Name()
		if pkg := u.Obj().Pkg(); pkg != nil && pkg.Name() != "main" {
			if pkg != local {
				return pkg.Name() + name + "Pool"
			}
		}
		return lowerFirst(name) + "Pool"
	case *types.Slice:
		if isByteSlice(u) {
			return "bytesPool"
		}
		return "slicePool"
	case *types.Map:
		return "mapPool"
	}
	return "objPool"
}

func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToLower(r[0])
	}
	return string(r)
}

// newExpression writes the New function's body expression and returns the
// constructor arguments that were replaced by zero values, which the caller
// passes to Reset after Get.
func newExpression(li *lineInfo, q types.Qualifier, p90 int64) (string, []string) {
	info := li.file.pkg.TypesInfo
	elem := li.typ
	if p, ok := elem.(*types.Pointer); ok {
		elem = p.Elem()
	}
	call, _ := ast.Unparen(li.expr).(*ast.CallExpr)
	switch {
	case li.kind == "ctor" && call != nil:
		fn := calledFunc(info, call)
		var sig *types.Signature
		if fn != nil {
			sig, _ = fn.Type().(*types.Signature)
		}
		var args, replaced []string
		for i, arg := range call.Args {
			if usesLocals(info, arg, li) {
				var pt types.Type
				if sig != nil && i < sig.Params().Len() {
					pt = sig.Params().At(i).Type()
				}
				args = append(args, zeroValue(pt, q))
				replaced = append(replaced, types.ExprString(arg))
			} else {
				args = append(args, types.ExprString(arg))
			}
		}
		return types.ExprString(call.Fun) + "(" + strings.Join(args, ", ") + ")", replaced
	case li.kind == "make" && call != nil:
		for _, arg := range call.Args[1:] {
			if usesLocals(info, arg, li) {
				if _, ok := under(li.typ).(*types.Slice); ok {
					return fmt.Sprintf("make(%s, 0, %d)", types.TypeString(li.typ, q), p90), nil
				}
				return fmt.Sprintf("make(%s)", types.TypeString(li.typ, q)), nil
			}
		}
		return types.ExprString(call), nil
	}
	switch under(li.typ).(type) {
	case *types.Pointer:
		return "new(" + types.TypeString(elem, q) + ")", nil
	case *types.Map:
		return "make(" + types.TypeString(li.typ, q) + ")", nil
	case *types.Slice:
		return fmt.Sprintf("make(%s, 0, %d)", types.TypeString(li.typ, q), p90), nil
	}
	return zeroValue(li.typ, q), nil
}

// usesLocals reports whether e mentions a variable local to the function.
func usesLocals(info *types.Info, e ast.Expr, li *lineInfo) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
				found = true
			}
		}
		return !found
	})
	return found
}

func zeroValue(t types.Type, q types.Qualifier) string {
	if t == nil {
		return "nil"
	}
	switch u := under(t).(type) {
	case *types.Basic:
		switch {
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsNumeric != 0:
			return "0"
		}
		return "nil"
	case *types.Struct, *types.Array:
		return types.TypeString(t, q) + "{}"
	}
	return "nil"
}

// resetHook chooses the Reset field from t's method set. after is code to
// run after Get (a Reset that needs the destination), with x for the object.
func resetHook(t types.Type, q types.Qualifier, replaced []string) (hook, after string) {
	tstr := types.TypeString(t, q)
	ms := types.NewMethodSet(t)
	var reset *types.Func
	for i := range ms.Len() {
		if f, ok := ms.At(i).Obj().(*types.Func); ok && f.Name() == "Reset" {
			reset = f
		}
	}
	if reset != nil {
		sig := reset.Type().(*types.Signature)
		recv := tstr
		if strings.HasPrefix(recv, "*") {
			recv = "(" + recv + ")"
		}
		if sig.Params().Len() == 0 && sig.Results().Len() == 0 {
			return recv + ".Reset", ""
		}
		args := make([]string, sig.Params().Len())
		nilable := true
		for i := range args {
			args[i] = zeroValue(sig.Params().At(i).Type(), q)
			if args[i] != "nil" {
				nilable = false
			}
		}
		call := ""
		if len(replaced) == len(args) && len(args) > 0 {
			call = "{x}.Reset(" + strings.Join(replaced, ", ") + ")"
		} else {
			call = "{x}.Reset(...) with what the constructor was given"
		}
		if sig.Results().Len() == 0 && nilable {
			// Reset(nil) drops the reference to the destination, so the
			// pool does not keep it alive.
			return fmt.Sprintf("func(x %s) { x.Reset(%s) }", tstr, strings.Join(args, ", ")), call
		}
		return "", call
	}
	switch u := under(t).(type) {
	case *types.Pointer:
		if _, ok := u.Elem().Underlying().(*types.Struct); ok {
			return fmt.Sprintf("func(x %s) { *x = %s{} }", tstr, types.TypeString(u.Elem(), q)), ""
		}
	case *types.Map:
		return fmt.Sprintf("func(m %s) { clear(m) }", tstr), ""
	case *types.Slice:
		return "", "{x} = {x}[:0] before use; Put {x}[:0]"
	}
	return "", ""
}
