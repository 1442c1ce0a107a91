package poolvet

import (
	"golang.org/x/tools/go/ssa"
)

// recordPutsInto notes in s the parameters into whose fields fn stores
// memory of an object that it puts before it returns (req.Body =
// io.NopCloser(buf); defer put(buf)): after the call the caller's value
// holds a put object (palantir/conjure-go-runtime#93). In-package only.
func (c *checker) recordPutsInto(s *summary, fn *ssa.Function, puts []putSite) {
	for i := range puts {
		p := &puts[i]
		if p.cond || p.field || !trackable(p) {
			continue
		}
		al := c.aliasesOf(fn, p.key, true)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !al[st.Val] {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				base, _ := fieldAddrChain(fa)
				if _, deferred := p.instr.(*ssa.Defer); !deferred && !mayPrecede(st, p.instr) {
					continue
				}
				for j, q := range fn.Params {
					// fr.payload = fr.payload[:0]; Put(fr): a store into
					// the put object itself holds nothing past the Put.
					if q == base && !al[base] && (j > 0 || fn.Signature.Recv() == nil) && !storesNilTo(fn, fa) {
						if s.putsInto == nil {
							s.putsInto = map[int]bool{}
						}
						s.putsInto[j] = true
					}
				}
			}
		}
	}
}

// storesNilTo reports whether fn stores nil into the field at fa (of the
// same base).
func storesNilTo(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && isNil(st.Val) {
				if f, ok := st.Addr.(*ssa.FieldAddr); ok && f.X == fa.X && f.Field == fa.Field {
					return true
				}
			}
		}
	}
	return false
}

// checkPutInto reports the first use, after a call whose callee stored
// memory of a pooled object into what it was passed and put the object
// (see recordPutsInto), of that argument.
func (c *checker) checkPutInto(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			ce, ok := c.calleeOf(&call.Call)
			if !ok || ce.sum == nil || len(ce.sum.putsInto) == 0 {
				continue
			}
			args := callArgs(&call.Call)
			for i := range ce.sum.putsInto {
				if i >= len(args) {
					continue
				}
				a := args[i]
				if use := firstUseAfter(fn, call, a); use != nil {
					name := "the callee"
					if f := call.Call.StaticCallee(); f != nil {
						name = f.Name()
					}
					c.report(checkUseAfterPut, use.Pos(), nil,
						"%s holds memory of an object that %s (line %d) stored in it and then put back into the pool: another user may own that object now; copy what it stores, or put the object only once %s is done with",
						a.Name(), name, c.line(call.Pos()), a.Name())
					return
				}
			}
		}
	}
}

// firstUseAfter returns the first call that can run after at and is given
// v, or nil.
func firstUseAfter(fn *ssa.Function, at ssa.Instruction, v ssa.Value) ssa.Instruction {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			ci, ok := instr.(ssa.CallInstruction)
			if !ok || instr == at || !mayPrecede(at, instr) {
				continue
			}
			com := ci.Common()
			for _, x := range append([]ssa.Value{com.Value}, com.Args...) {
				if x == v {
					return instr
				}
			}
		}
	}
	return nil
}
