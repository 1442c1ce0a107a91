package poolvet

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// aliasingCalls are methods whose result shares memory with their receiver.
// Methods that copy, such as (*bytes.Buffer).String, are deliberately absent.
var aliasingCalls = map[string]bool{
	"bytes.Buffer.Bytes":           true,
	"bytes.Buffer.AvailableBuffer": true,
	// reflect views of the object: interior pointers and slices.
	"reflect.Value.Bytes":                 true,
	"reflect.Value.Pointer":               true,
	"reflect.Value.UnsafePointer":         true,
	"reflect.Value.UnsafeAddr":            true,
	"reflect.Value.Interface":             true,
	"reflect.Value.Slice":                 true,
	"reflect.Value.Slice3":                true,
	"reflect.Value.Index":                 true,
	"reflect.Value.Elem":                  true,
	"reflect.Value.Field":                 true,
	"reflect.Value.FieldByName":           true,
	"reflect.Value.Addr":                  true,
	bytepoolPath + ".Buffer.Bytes":        true,
	bytepoolPath + ".Buffer.AvailableBuf": true,
	// Methods of standard interfaces that append to their first argument
	// and return the result: in the argument's memory when it has room
	// (juicefs's decrypt in place, aead.Open(ciphertext[:0], ...)).
	"crypto/cipher.AEAD.Seal":              true,
	"crypto/cipher.AEAD.Open":              true,
	"hash.Hash.Sum":                        true,
	"hash.Hash32.Sum":                      true,
	"hash.Hash64.Sum":                      true,
	"encoding.BinaryAppender.AppendBinary": true,
	"encoding.TextAppender.AppendText":     true,
	// Functions of package bytes whose result is a sub-slice of their
	// first argument, or a list of sub-slices (rqlite/rqlite#1193:
	// bytes.TrimRight(buf.Bytes(), "\n") returned past the deferred Put).
	"bytes.Trim":          true,
	"bytes.TrimLeft":      true,
	"bytes.TrimRight":     true,
	"bytes.TrimSpace":     true,
	"bytes.TrimPrefix":    true,
	"bytes.TrimSuffix":    true,
	"bytes.TrimFunc":      true,
	"bytes.TrimLeftFunc":  true,
	"bytes.TrimRightFunc": true,
	"bytes.CutPrefix":     true,
	"bytes.CutSuffix":     true,
	"bytes.Cut":           true,
	"bytes.Split":         true,
	"bytes.SplitN":        true,
	"bytes.SplitAfter":    true,
	"bytes.SplitAfterN":   true,
	"bytes.Fields":        true,
	"bytes.FieldsFunc":    true,
	// Views of a bufio.Reader's or Scanner's own buffer.
	"bufio.Reader.Peek":      true,
	"bufio.Reader.ReadSlice": true,
	"bufio.Scanner.Bytes":    true,
}

// aliasesOf returns the values of fn that are the object of key or share
// its memory: sub-slices, field addresses, loaded pointers, closures that
// captured it, aggregates that hold it.
//
// With may set, a phi counts as soon as one of its incoming values does (a
// may-alias, for checks where more aliases mean fewer reports); without it,
// only when all of them do.
func (c *checker) aliasesOf(fn *ssa.Function, key objKey, may bool) map[ssa.Value]bool {
	set := map[ssa.Value]bool{}
	var work []ssa.Value
	add := func(v ssa.Value) {
		if v != nil && !set[v] {
			set[v] = true
			work = append(work, v)
		}
	}
	if key.cell {
		for _, load := range loadsOf(fn, key.v) {
			add(load)
		}
		// A closure that captured the variable reads the object when called.
		if refs := key.v.Referrers(); refs != nil {
			for _, instr := range *refs {
				if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Parent() == fn {
					add(mc)
				}
			}
		}
	} else {
		add(key.v)
	}
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		// bufp, in := readRequest(): in is a view of bufp (tupleViews).
		if ex, ok := v.(*ssa.Extract); ok && ex.Index == 0 {
			if call, ok := ex.Tuple.(*ssa.Call); ok {
				if ce, ok := c.calleeOf(&call.Call); ok && ce.sum != nil && len(ce.sum.tupleViews) > 0 {
					for _, r := range *call.Referrers() {
						if sib, ok := r.(*ssa.Extract); ok && ce.sum.tupleViews[sib.Index] {
							add(sib)
						}
					}
				}
			}
		}
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, instr := range *refs {
			if instr.Parent() != fn {
				continue
			}
			switch x := instr.(type) {
			case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.Slice, *ssa.ChangeType, *ssa.ChangeInterface,
				*ssa.MakeInterface, *ssa.SliceToArrayPointer, *ssa.MakeClosure:
				add(x.(ssa.Value))
			case *ssa.TypeAssert:
				add(x)
			case *ssa.Extract:
				if x.Index == 0 {
					add(x)
				}
			case *ssa.Field:
				if sharesBacking(x.Type()) {
					add(x)
				}
			case *ssa.Index:
				if sharesBacking(x.Type()) {
					add(x)
				}
			case *ssa.UnOp:
				if x.Op == token.MUL && (sharesBacking(x.Type()) || growable(x.Type()) && isBuilder(x.Type())) && !notOwned(fn, x.X) && !c.borrowedField(x.X) {
					add(x)
				}
				// *(*string)(unsafe.Pointer(&b)): a string over the
				// bytes, no copy (uptrace/bun#36's String(b)).
				if cv, ok := x.X.(*ssa.Convert); ok && x.Op == token.MUL && isString(x.Type()) && isUnsafePointer(cv.X.Type()) {
					add(x)
				}
			case *ssa.Phi:
				// A nil edge of a slice that is appended to holds
				// nothing: the slice holds the object or nothing (if bad
				// { errs = append(errs, &Detail{Value: body}) }). Not a
				// pointer set to nil after its Put (pmsg = nil).
				all := true
				for _, e := range x.Edges {
					if e != x && !set[e] && !(isNil(e) && appendedPhi(x)) {
						all = false
					}
				}
				if all || may {
					add(x)
				}
			case *ssa.Call:
				if r := c.retainingReceiver(&x.Call, v); r != nil {
					add(r) // d.Unmarshal(buf): d holds buf now
				}
				// f.SetBytes(body) with f := reflect.ValueOf(&in).Elem().Field(i):
				// the local in holds body now (danielgtaylor/huma#542).
				if a := reflectSetRoot(&x.Call, v); a != nil {
					add(a)
					for _, load := range loadsOf(fn, a) {
						add(load)
					}
				}
				if ce, ok := c.calleeOf(&x.Call); ok && ce.sum != nil && ce.sum.grows > 0 {
					if args := callArgs(&x.Call); ce.sum.grows < len(args) && args[ce.sum.grows] == v {
						add(x) // decode(rec, dst[:0]) returns dst grown
					}
				}
				if c.aliasingCall(&x.Call, v) && !c.releasedHolder(fn, &x.Call, v) || keepsArg(&x.Call, v) || c.keptBy(&x.Call, v) || unsafeView(&x.Call) ||
					appendsHeld(&x.Call, v) || appendedSlice(x) == v && !c.inPackage(&x.Call) {
					add(x)
				}
			case *ssa.Convert:
				// (*T)(unsafe.Pointer(&b[0])) and back: the same memory.
				if isUnsafePointer(x.Type()) || isUnsafePointer(x.X.Type()) {
					add(x)
				}
			case *ssa.Store:
				if x.Val == v {
					if a := localRoot(x.Addr); a != nil {
						add(a)
						for _, load := range loadsOf(fn, a) {
							add(load)
						}
					}
				}
			}
		}
	}
	return set
}

// borrowedField reports whether addr is a field that some function of the
// package sets to one of its (non-receiver) parameters, as
// vw.reset(dst) does with vw.buf = dst: the object holds the caller's
// memory for a while, and the next user replaces it rather than reusing it.
func (c *checker) borrowedField(addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	n, ok := types.Unalias(derefType(fa.X.Type())).(*types.Named)
	if !ok {
		return false
	}
	if c.borrowed == nil {
		c.borrowed = map[[2]any]bool{}
		c.eachFieldStore(func(fn *ssa.Function, st *ssa.Store, sfa *ssa.FieldAddr) {
			prm, ok := unslice(st.Val).(*ssa.Parameter)
			if !ok || isReceiver(prm) || !sharesBacking(prm.Type()) {
				return
			}
			// if len(b) < limit { bs.b = b }: the object keeps the
			// grown copy of its own buffer when it is small enough
			// (uptrace/bun's byteSlice.update), not a caller's memory.
			if sizeGuardedStore(st, prm) {
				return
			}
			// NewBuffer(b) wrapping b in a new object, called only with
			// fresh memory (NewBuffer(make([]byte, 0, 256)) in a pool's
			// New): the object owns it (istio/istio#8361's proto.Buffer).
			if _, fresh := sfa.X.(*ssa.Alloc); fresh && c.freshArgs(fn, prm) {
				return
			}
			if sn, ok := types.Unalias(derefType(sfa.X.Type())).(*types.Named); ok {
				c.borrowed[[2]any{sn.Origin().Obj(), sfa.Field}] = true
			}
		})
	}
	return c.borrowed[[2]any{n.Origin().Obj(), fa.Field}]
}

// freshArgs reports whether every call of fn in the package, and there is
// one, passes fresh memory (a make) as its parameter prm.
func (c *checker) freshArgs(fn *ssa.Function, prm *ssa.Parameter) bool {
	idx := paramIndex(fn, prm)
	sites := c.callSitesOf(fn)
	if idx < 0 || len(sites) == 0 {
		return false
	}
	for _, cs := range sites {
		com := cs.Common()
		if com.IsInvoke() || idx >= len(com.Args) {
			return false
		}
		switch x := unslice(com.Args[idx]).(type) {
		case *ssa.MakeSlice:
		case *ssa.Alloc:
			// make([]byte, 0, 256) of constant size: a new array
			if _, arr := derefType(x.Type()).Underlying().(*types.Array); !arr {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// notOwned reports whether addr is a field whose memory the object does
// not own for good: fn also stores into the same field nil, or a value
// taken from elsewhere (l.parts = q.Parts[:0]; ...; q.Parts = l.parts), or
// moves it out and clears it (body := m.body; m.body = nil). A load of
// such a field is not memory that the next user of the object reuses.
func notOwned(fn *ssa.Function, addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !sameAddr(st.Addr, fa, 0) {
				continue
			}
			if !ownedValue(st.Val, fa, 0) {
				return true
			}
		}
	}
	return false
}

// ownedValue reports whether v, stored into the field at fa, is memory
// that the object owns: fresh memory, or derived from the field itself.
func ownedValue(v ssa.Value, fa *ssa.FieldAddr, depth int) bool {
	if depth > 8 {
		return true
	}
	switch x := v.(type) {
	case *ssa.Const:
		return false
	case *ssa.Slice:
		return ownedValue(x.X, fa, depth+1)
	case *ssa.ChangeType:
		return ownedValue(x.X, fa, depth+1)
	case *ssa.MakeSlice, *ssa.MakeMap, *ssa.Alloc:
		return true
	case *ssa.UnOp:
		return x.Op == token.MUL && sameAddr(x.X, fa, 0)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !ownedValue(e, fa, depth+1) {
				return false
			}
		}
		return true
	case *ssa.Call:
		if b, ok := x.Call.Value.(*ssa.Builtin); ok {
			return b.Name() == "append" && len(x.Call.Args) > 0 && ownedValue(x.Call.Args[0], fa, depth+1)
		}
		return true // a helper that grows or allocates
	}
	return false
}

// releasedHolder reports whether a call returns a struct that holds a
// field of v (a summary's aliasField), and fn, or a method it calls on v,
// then stores into that field of v something v does not own (nil): the
// struct keeps the only reference, which is no longer pool memory.
func (c *checker) releasedHolder(fn *ssa.Function, com *ssa.CallCommon, v ssa.Value) bool {
	ce, ok := c.calleeOf(com)
	if !ok || ce.sum == nil || ce.sum.aliasField < 0 {
		return false
	}
	f := ce.sum.aliasField
	clears := func(g *ssa.Function, base ssa.Value) bool {
		for _, b := range g.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok && fa.Field == f && fa.X == base && !ownedValue(st.Val, fa, 0) {
					return true
				}
			}
		}
		return false
	}
	if clears(fn, v) {
		return true
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || len(call.Call.Args) == 0 || call.Call.Args[0] != v {
				continue
			}
			if g := call.Call.StaticCallee(); g != nil && len(g.Params) > 0 && g.Pkg != nil && g.Pkg.Pkg == c.pass.Pkg && clears(g, g.Params[0]) {
				return true
			}
		}
	}
	return false
}

// aliasingCall reports whether the result of a call shares memory with v.
func (c *checker) aliasingCall(com *ssa.CallCommon, v ssa.Value) bool {
	if len(com.Args) == 0 || com.Args[0] != v {
		return false
	}
	if b, ok := com.Value.(*ssa.Builtin); ok {
		return b.Name() == "append"
	}
	if ce, ok := c.calleeOf(com); ok && ce.sum != nil && ce.sum.aliases {
		return true
	}
	return aliasingCalls[calleeName(com)] || !com.IsInvoke() && returnsBigReceiver(com)
}

// returnsBigReceiver reports whether com calls a math/big method that
// returns its receiver (z.Mul(x, y) returns z; IBM/TSS#27).
func returnsBigReceiver(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "math/big" {
		return false
	}
	sig := fn.Signature
	return sig.Recv() != nil && sig.Results().Len() > 0 && types.Identical(sig.Results().At(0).Type(), sig.Recv().Type())
}

// keptBy reports whether com calls a function of the package whose result
// holds the argument v as it is (summary.keeps).
func (c *checker) keptBy(com *ssa.CallCommon, v ssa.Value) bool {
	ce, ok := c.calleeOf(com)
	if !ok || ce.sum == nil || len(ce.sum.keeps) == 0 {
		return false
	}
	args := callArgs(com)
	for i := range ce.sum.keeps {
		if i < len(args) && args[i] == v {
			return true
		}
	}
	return false
}

// retainingReceiver returns the receiver of com when it calls a method of
// the package that keeps its argument v in memory the receiver reaches
// (summary.retainsIn), or nil.
func (c *checker) retainingReceiver(com *ssa.CallCommon, v ssa.Value) ssa.Value {
	args := callArgs(com)
	for _, i := range receiverKeeps[calleeName(com)] {
		if i < len(args) && args[i] == v {
			return args[0]
		}
	}
	if com.IsInvoke() {
		// The implementations count their receiver as parameter 0.
		args = append([]ssa.Value{com.Value}, com.Args...)
	}
	for _, s := range c.retainSums(com) {
		for i := range s.retainsIn {
			if i > 0 && i < len(args) && args[i] == v {
				return args[0]
			}
		}
	}
	return nil
}

// receiverKeeps lists, for standard-library methods that keep some of their
// arguments in their receiver, the indexes of those arguments (receiver
// 0): a sync.Map holds its keys and values, so an unsafe string over
// pooled bytes used as a key outlives the bytes' Put (ulule/limiter#231).
var receiverKeeps = map[string][]int{
	"sync.Map.Store":          {1, 2},
	"sync.Map.LoadOrStore":    {1, 2},
	"sync.Map.Swap":           {1, 2},
	"sync.Map.CompareAndSwap": {3},
}

// retainSums returns the summaries of what com calls that keep an argument
// in memory their receiver reaches: the callee's, or for a method of an
// interface of the package, those of its implementations in the package
// that do (r.entry.UnmarshalBinary(data), where one entry type appends
// views of data to its keys: influxdata/influxdb#9580).
func (c *checker) retainSums(com *ssa.CallCommon) []*summary {
	if com.IsInvoke() {
		n, ok := types.Unalias(com.Value.Type()).(*types.Named)
		if !ok || n.Obj().Pkg() != c.pass.Pkg {
			return nil
		}
		var out []*summary
		for _, fn := range c.implsOf(n, com.Method.Name()) {
			if s := c.sums[fn]; s != nil && len(s.retainsIn) > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	if ce, ok := c.calleeOf(com); ok && ce.sum != nil && len(ce.sum.retainsIn) > 0 {
		return []*summary{ce.sum}
	}
	return nil
}

// appendsHeld reports whether com is append(s, x) and v is the array the
// compiler built for its new elements, which holds an alias (out =
// append(out, b.Bytes())): the result holds it too. append(s, b...) copies
// b's elements and is not this.
func appendsHeld(com *ssa.CallCommon, v ssa.Value) bool {
	b, ok := com.Value.(*ssa.Builtin)
	if !ok || b.Name() != "append" || len(com.Args) < 2 || com.Args[1] != v {
		return false
	}
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return false
	}
	_, ok = sl.X.(*ssa.Alloc)
	return ok
}

// unsafeView reports whether a call is unsafe.String, unsafe.Slice,
// unsafe.StringData or unsafe.SliceData, whose result views the memory of
// its first argument (projectdiscovery/utils#711).
func unsafeView(com *ssa.CallCommon) bool {
	b, ok := com.Value.(*ssa.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "String", "Slice", "StringData", "SliceData":
		return true
	}
	return false
}

// isUnsafePointer reports whether t is unsafe.Pointer.
func isUnsafePointer(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.UnsafePointer
}

// keeping lists, for standard-library functions whose result keeps a
// reference to some of their arguments, the indexes of those arguments
// (receiver first): a request built over a pooled body, a reader wrapping
// a pooled buffer.
var keeping = map[string][]int{
	"net/http.NewRequest":            {2},
	"net/http.NewRequestWithContext": {0, 3},
	"net/http.Request.WithContext":   {0, 1},
	"net/http.Request.Clone":         {0, 1},
	"net/http.ReadResponse":          {0},
	"net/http.ReadRequest":           {0},
	"bufio.NewReader":                {0},
	"bufio.NewReaderSize":            {0},
	"bufio.NewWriter":                {0},
	"bufio.NewWriterSize":            {0},
	"bufio.NewReadWriter":            {0, 1},
	"bytes.NewReader":                {0},
	"bytes.NewBuffer":                {0},
	"io.LimitReader":                 {0},
	"io.TeeReader":                   {0, 1},
	"io.NopCloser":                   {0},
	"io.MultiReader":                 {0}, // the variadic slice of readers
	"io.MultiWriter":                 {0},
	"io.NewSectionReader":            {0},
	"compress/gzip.NewReader":        {0},
	"compress/gzip.NewWriter":        {0},
	"compress/gzip.NewWriterLevel":   {0},
	"compress/flate.NewReader":       {0},
	"compress/flate.NewWriter":       {0},
	"compress/zlib.NewReader":        {0},
	"compress/zlib.NewWriter":        {0},
	"compress/zlib.NewWriterLevel":   {0},
	"encoding/json.NewEncoder":       {0},
	"encoding/json.NewDecoder":       {0},
	"context.WithValue":              {0, 2},
	"context.WithCancel":             {0},
	"context.WithTimeout":            {0},
	"context.WithDeadline":           {0},
	"reflect.ValueOf":                {0},
	"reflect.NewAt":                  {1}, // a Value over the memory at the pointer (ebitengine/purego#451)
}

// keepsArg reports whether the result of a call keeps a reference to v,
// one of its arguments.
func keepsArg(com *ssa.CallCommon, v ssa.Value) bool {
	idx, ok := keeping[calleeName(com)]
	if !ok {
		return false
	}
	for _, i := range idx {
		if i < len(com.Args) && com.Args[i] == v {
			return true
		}
	}
	return false
}

// loadsOf returns the loads of the variable at addr within fn.
func loadsOf(fn *ssa.Function, addr ssa.Value) []ssa.Value {
	var loads []ssa.Value
	refs := addr.Referrers()
	if refs == nil {
		return nil
	}
	for _, instr := range *refs {
		if u, ok := instr.(*ssa.UnOp); ok && u.Op == token.MUL && u.X == addr && u.Parent() == fn {
			loads = append(loads, u)
		}
	}
	return loads
}

// reflectSetRoot returns, for a call of reflect.Value's SetBytes or Set
// given v, the local variable that the Value refers into when it was
// derived from reflect.ValueOf(&local) through Elem, Field and Index; or
// nil.
func reflectSetRoot(com *ssa.CallCommon, v ssa.Value) *ssa.Alloc {
	switch calleeName(com) {
	case "reflect.Value.SetBytes", "reflect.Value.Set":
	default:
		return nil
	}
	if len(com.Args) != 2 || com.Args[1] != v {
		return nil
	}
	r := com.Args[0]
	for i := 0; i < 8; i++ {
		switch x := r.(type) {
		case *ssa.Call:
			switch calleeName(&x.Call) {
			case "reflect.Value.Elem", "reflect.Value.Field", "reflect.Value.Index", "reflect.Value.FieldByName", "reflect.Value.FieldByIndex":
				r = x.Call.Args[0]
				continue
			case "reflect.ValueOf":
				r = x.Call.Args[0]
				continue
			}
			return nil
		case *ssa.MakeInterface:
			r = x.X
			continue
		}
		return localRoot(r)
	}
	return nil
}

// localRoot returns the local allocation that addr points into, or nil.
func localRoot(addr ssa.Value) *ssa.Alloc {
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, ok := a.X.Type().Underlying().(*types.Pointer); !ok {
				return nil // indexing a slice: memory of unknown origin
			}
			addr = a.X
		case *ssa.Alloc:
			return a
		default:
			return nil
		}
	}
}

// hasPointers reports whether a value of type t may refer to shared memory.
// Strings are immutable, so they do not count.
func hasPointers(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if hasPointers(u.Field(i).Type()) {
				return true
			}
		}
		return false
	case *types.Array:
		return u.Len() > 0 && hasPointers(u.Elem())
	}
	return true
}

// sharesBacking reports whether a value of type t, loaded from a pooled
// object, keeps referring to memory that the next user of the object
// reuses: a slice or a map (or an aggregate holding one). Loaded pointers,
// interfaces and strings usually refer to memory the object does not own.
func sharesBacking(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Map:
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if sharesBacking(u.Field(i).Type()) {
				return true
			}
		}
	case *types.Array:
		return u.Len() > 0 && sharesBacking(u.Elem())
	}
	return false
}

// pointerShaped reports whether a value of type t is stored in an interface
// without allocation.
func pointerShaped(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return true
	case *types.Basic:
		return u.Kind() == types.UnsafePointer
	case *types.Struct:
		return u.NumFields() == 1 && pointerShaped(u.Field(0).Type())
	case *types.Array:
		return u.Len() == 1 && pointerShaped(u.Elem())
	}
	return false
}

// smallValue reports whether t is stored in an interface without allocation
// because it is empty or a single byte.
func smallValue(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !smallValue(u.Field(i).Type()) || u.NumFields() > 1 {
				return false
			}
		}
		return true
	case *types.Array:
		return u.Len() == 0 || u.Len() == 1 && smallValue(u.Elem())
	case *types.Basic:
		switch u.Kind() {
		case types.Bool, types.Int8, types.Uint8:
			return true
		}
	}
	return false
}

// resetsObj reports whether fn resets the object of key anywhere: a Reset
// method call, a call to a function whose name says it resets or clears
// and that takes the object, the clear builtin, or an overwrite of *obj.
func (c *checker) resetsObj(fn *ssa.Function, key objKey) bool {
	al := c.aliasesOf(fn, key, true)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Store:
				if !key.cell && x.Addr == key.v {
					return true
				}
				// *obj = T{} through the asserted pointer.
				if ta, ok := x.Addr.(*ssa.TypeAssert); ok && !key.cell && al[ta] {
					return true
				}
			case ssa.CallInstruction:
				com := x.Common()
				if com.IsInvoke() {
					if isResetName(com.Method.Name()) && partOf(com.Value, al) {
						return true
					}
					continue
				}
				if bi, ok := com.Value.(*ssa.Builtin); ok {
					if bi.Name() == "clear" && len(com.Args) == 1 && al[com.Args[0]] {
						return true
					}
					continue
				}
				var name string
				if callee := com.StaticCallee(); callee != nil {
					name = callee.Name()
					if obj, ok := callee.Object().(*types.Func); ok {
						name = obj.Name()
					}
				} else if name = hookName(com.Value); name == "" {
					continue
				}
				for i, a := range com.Args {
					if !partOf(a, al) {
						continue
					}
					if isResetName(name) {
						return true
					}
					if ce, ok := c.calleeOf(com); ok && ce.sum != nil && ce.sum.putParams[i].resets {
						return true
					}
					// A method of a holder that resets the field holding
					// the object (tw.FreeBuffer() doing tw.body.Reset()).
					if g := com.StaticCallee(); g != nil && g.Pkg != nil && g.Pkg.Pkg == c.pass.Pkg && i < len(g.Params) && resetsFieldOf(g, g.Params[i]) {
						return true
					}
				}
			}
		}
	}
	return false
}

// hookName returns the name of the field that a call through a func-typed
// field loads its function from (p.reset(v)), or "".
// methodCall returns the name and the receiver of a method call (through
// an interface or static), or a nil receiver for other calls.
func methodCall(com *ssa.CallCommon) (string, ssa.Value) {
	if com.IsInvoke() {
		return com.Method.Name(), com.Value
	}
	if g := com.StaticCallee(); g != nil && g.Signature.Recv() != nil && len(com.Args) > 0 {
		return g.Name(), com.Args[0]
	}
	return "", nil
}

// resetsFieldOf reports whether fn calls a Reset-like method on an object
// loaded from a field of prm (prm.body.Reset()).
func resetsFieldOf(fn *ssa.Function, prm *ssa.Parameter) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			name, recv := methodCall(ci.Common())
			if recv == nil || !isResetName(name) {
				continue
			}
			if u, ok := recv.(*ssa.UnOp); ok && u.Op == token.MUL {
				recv = u.X
			}
			if fa, ok := recv.(*ssa.FieldAddr); ok && fa.X == ssa.Value(prm) {
				return true
			}
		}
	}
	return false
}

func hookName(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.UnOp:
		if fa, ok := x.X.(*ssa.FieldAddr); ok && x.Op == token.MUL {
			if st, ok := derefStruct(fa.X.Type()); ok && fa.Field < st.NumFields() {
				return st.Field(fa.Field).Name()
			}
		}
	case *ssa.Field:
		if st, ok := x.X.Type().Underlying().(*types.Struct); ok && x.Field < st.NumFields() {
			return st.Field(x.Field).Name()
		}
	}
	return ""
}

// derefStruct returns the struct type that t points to.
func derefStruct(t types.Type) (*types.Struct, bool) {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return nil, false
	}
	st, ok := p.Elem().Underlying().(*types.Struct)
	return st, ok
}

// partOf reports whether v is one of the aliases al, or is reached from one
// through fields and loads: the receiver of a promoted method such as the
// Reset of an embedded *gzip.Reader.
func partOf(v ssa.Value, al map[ssa.Value]bool) bool {
	for i := 0; v != nil && i < 8; i++ {
		if al[v] || al[rootOf(v).v] {
			return true
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.FieldAddr:
			v = x.X
		case *ssa.Field:
			v = x.X
		default:
			return false
		}
	}
	return false
}

// isResetName reports whether a function name says it resets its object.
func isResetName(name string) bool {
	switch name {
	case "Reset", "reset", "Clear", "clear", "Truncate":
		return true
	}
	for _, p := range []string{"reset", "Reset", "clear", "Clear"} {
		if len(name) > len(p) && (strings.HasPrefix(name, p) || strings.HasSuffix(name, p)) {
			return true
		}
	}
	return false
}

// hasResetMethod reports whether the method set of t has a method Reset()
// without parameters, the kind that clears state. Reset with arguments
// (time.Timer.Reset(d), gzip.Writer.Reset(w)) re-arms or re-targets the
// object instead, so it says nothing about leftover state.
func hasResetMethod(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Reset")
	fn, ok := obj.(*types.Func)
	return ok && fn.Type().(*types.Signature).Params().Len() == 0
}

// appendedPhi reports whether phi is a slice whose non-nil edges are
// appends to it (an accumulator: var errs []T; if c { errs = append(errs, x) }).
func appendedPhi(phi *ssa.Phi) bool {
	if _, ok := phi.Type().Underlying().(*types.Slice); !ok {
		return false
	}
	n := 0
	for _, e := range phi.Edges {
		if isNil(e) || e == phi {
			continue
		}
		call, ok := e.(*ssa.Call)
		if !ok {
			return false
		}
		if b, ok := call.Call.Value.(*ssa.Builtin); !ok || b.Name() != "append" {
			return false
		}
		n++
	}
	return n > 0
}

// inPackage reports whether com statically calls a function of the package
// being checked (whose summary says what it does with its arguments: an
// Append helper of the package may put the old buffer and return a new one).
func (c *checker) inPackage(com *ssa.CallCommon) bool {
	fn := com.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg == c.pass.Pkg
}

// sizeGuardedStore reports whether the store st runs only where an if
// compared the length or capacity of prm.
func sizeGuardedStore(st *ssa.Store, prm *ssa.Parameter) bool {
	for _, d := range st.Parent().Blocks {
		iff, ok := lastInstr(d).(*ssa.If)
		if !ok || len(d.Succs) != 2 {
			continue
		}
		if !d.Succs[0].Dominates(st.Block()) && !d.Succs[1].Dominates(st.Block()) {
			continue
		}
		cmp, ok := iff.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		for _, x := range []ssa.Value{cmp.X, cmp.Y} {
			call, ok := x.(*ssa.Call)
			if ok && (isBuiltin(&call.Call, "len") || isBuiltin(&call.Call, "cap")) && len(call.Call.Args) == 1 && call.Call.Args[0] == ssa.Value(prm) {
				return true
			}
		}
	}
	return false
}
