package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A strings.Builder cannot be reused the way a bytes.Buffer is: String
// returns the builder's bytes without copying, so Reset drops the buffer
// (buf = nil) instead of truncating it. Two consequences for pools:
// a builder reset just before its Put holds no memory (nothing to bound),
// and a builder put back after its last write still holds the string it
// built until the next user resets it (erigontech/erigon#23642).

// isStringsBuilder reports whether t is *strings.Builder or strings.Builder.
func isStringsBuilder(t types.Type) bool {
	return isNamed(derefType(t), "strings", "Builder")
}

// lastCallOn returns the name of the last call on the object of key that
// runs before instr on every path: the nearest one in instr's block, then
// in the blocks that dominate it, or "" if none. A call on the object is
// a method call with it as receiver or a function given it as an
// argument; a call of a func value is named "(func value)". The search
// stops at until, if it meets it first ("": no call after until).
func (c *checker) lastCallOn(fn *ssa.Function, key objKey, instr, until ssa.Instruction) string {
	al := c.aliasesOf(fn, key, true)
	b := instr.Block()
	stop := instr
	for b != nil {
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			in := b.Instrs[i]
			if stop != nil {
				if in == stop {
					stop = nil
				}
				continue
			}
			if in == until {
				return ""
			}
			ci, ok := in.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := ci.Common()
			if _, ok := com.Value.(*ssa.Builtin); ok {
				continue // len, cap: no effect on the object
			}
			on := com.IsInvoke() && partOf(com.Value, al)
			for _, a := range com.Args {
				on = on || partOf(a, al)
			}
			if !on {
				continue
			}
			if callee := com.StaticCallee(); callee != nil {
				return callee.Name()
			}
			if com.IsInvoke() {
				return com.Method.Name()
			}
			return "(func value)"
		}
		b = b.Idom()
	}
	return ""
}

// builderDropped reports whether the strings.Builder of put p is reset
// after its last use, so that it goes back holding no buffer.
func (c *checker) builderDropped(fn *ssa.Function, p *putSite) bool {
	arg := p.arg
	if mi, ok := arg.(*ssa.MakeInterface); ok {
		arg = mi.X
	}
	return isStringsBuilder(arg.Type()) && c.lastCallOn(fn, p.key, p.instr, nil) == "Reset"
}

// checkBuilderKept reports the Puts of the strings.Builder of g, reset
// somewhere in fn, that do not follow a Reset after the builder's last
// use: the builder goes back holding the string it built.
func (c *checker) checkBuilderKept(fn *ssa.Function, puts []putSite, g getSite) {
	for i := range puts {
		p := &puts[i]
		if p.resets || p.field || p.prim != nil && p.prim.kind == kindByte {
			continue
		}
		if !c.flowsFrom(p.key.v, g.call) && !(p.key.cell && storesFrom(fn, p.key.v, g.call, c)) {
			continue
		}
		if c.lastCallOn(fn, p.key, p.instr, nil) == "Reset" {
			continue
		}
		c.report(checkNoReset, p.instr.Pos(), nil,
			"%s (strings.Builder) goes back to the pool still holding the string it built: its String shares the builder's bytes, so reuse needs Reset, which drops them; call Reset just before the Put (or do not pool strings.Builder)",
			c.objName(p))
	}
}
