package poolvet

import "golang.org/x/tools/go/ssa"

// checkCallbackPut reports a Put, in fn, of an object that fn earlier gave
// to a function-typed parameter, when a caller of fn in the package passes
// there a function that puts that argument on every path: both put it
// (influxdata/influxdb#18116: Table.Do releases each reader after calling
// f, and an encoder's f released it too). Reported at fn's Put, the second.
func (c *checker) checkCallbackPut(fn *ssa.Function, puts []putSite) {
	for i := range puts {
		p := &puts[i]
		if p.field || p.cond && !p.release || !trackable(p) {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || call.Call.IsInvoke() || !mayPrecede(call, p.instr) {
					continue
				}
				param, ok := call.Call.Value.(*ssa.Parameter)
				if !ok {
					continue
				}
				k := paramIndex(fn, param)
				for j, a := range call.Call.Args {
					if k < 0 || rootOf(a).v != p.key.v {
						continue
					}
					if g, at := c.puttingCallback(fn, k, j); g != nil {
						c.report(checkDoublePut, p.instr.Pos(), nil,
							"%s is put into the pool here after the call at line %d gave it to %s, but %s (line %d) passes there a function that puts it too: it is put twice; put it in one place",
							c.objName(p), c.line(call.Pos()), param.Name(), displayName(g), c.line(at.Pos()))
						return
					}
				}
			}
		}
	}
}

// puttingCallback returns a function of the package that passes, as
// argument k of a call of fn, a function that puts its parameter j on
// every path, and that call.
func (c *checker) puttingCallback(fn *ssa.Function, k, j int) (*ssa.Function, ssa.CallInstruction) {
	for _, ci := range c.callSitesOf(fn) {
		args := callArgs(ci.Common())
		if k >= len(args) {
			continue
		}
		var cb *ssa.Function
		switch v := args[k].(type) {
		case *ssa.MakeClosure:
			cb, _ = v.Fn.(*ssa.Function)
		case *ssa.Function:
			cb = v
		}
		if cb == nil {
			continue
		}
		if s := c.sums[cb]; s != nil {
			if pp, ok := s.putParams[j]; ok && !pp.field && (!pp.cond || pp.release) {
				return ci.Parent(), ci
			}
		}
	}
	return nil, nil
}
