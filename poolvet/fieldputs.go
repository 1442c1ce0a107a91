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
	base, path, last := fieldChain(p.key.v)
	prm, ok := base.(*ssa.Parameter)
	if !ok {
		return
	}
	for i, q := range fn.Params {
		if q != prm {
			continue
		}
		if s.fieldPuts == nil {
			s.fieldPuts = map[int]map[string]bool{}
		}
		if s.fieldPuts[i] == nil {
			s.fieldPuts[i] = map[string]bool{}
		}
		s.fieldPuts[i][path] = s.fieldPuts[i][path] || !storesTo(fn, last)
	}
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
	type loc struct {
		base ssa.Value
		path string
	}
	type fieldCall struct {
		instr ssa.CallInstruction
		at    loc
		kept  bool
		arg   int    // the argument (receiver first) whose field is put
		path  string // the field path from that argument
	}
	var calls []fieldCall
	stored := map[loc]bool{} // field paths fn stores into (x.buf = nil)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if fa, ok := st.Addr.(*ssa.FieldAddr); ok {
					base, path := fieldAddrChain(fa)
					stored[loc{base, path}] = true
				}
			}
			ci, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			switch instr.(type) {
			case *ssa.Go, *ssa.Defer:
				continue // run at another time than their place says
			}
			ce, ok := c.calleeOf(ci.Common())
			if !ok || ce.sum == nil {
				continue
			}
			args := callArgs(ci.Common())
			for i, paths := range ce.sum.fieldPuts {
				if i >= len(args) || ce.sum.putParams[i].guard > 0 {
					continue // a Put guarded by a flag field: checkGuardedAgain
				}
				base, prefix := args[i], ""
				if b, p, _ := fieldChain(args[i]); b != nil {
					base, prefix = b, p+"."
				}
				for path, kept := range paths {
					calls = append(calls, fieldCall{ci, loc{base, prefix + path}, kept, i, path})
				}
			}
		}
	}
	for _, a := range calls {
		if !a.kept || stored[a.at] {
			continue
		}
		for _, b := range calls {
			if b.instr == a.instr || b.at != a.at || !mayPrecede(a.instr, b.instr) {
				continue
			}
			arg := callArgs(b.instr.Common())[b.arg]
			name := c.objName(&putSite{instr: b.instr, param: b.arg, key: rootOf(arg), arg: arg})
			c.report(checkDoublePut, b.instr.Pos(), nil,
				"this call puts %s again: the call at line %d put it and left the field holding it, so a check for nil does not stop the second Put; clear the field where it is put",
				fieldPathName(name, arg.Type(), b.path), c.line(a.instr.Pos()))
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
