package poolvet

import "golang.org/x/tools/go/ssa"

// recordCleanups notes in s the results of fn that are closures putting
// what another result shares memory with: ReadAll returning buf.Bytes()
// and a cleanup func that puts buf (erpc/erpc#451). Calling that result
// is a Put of the other one. In-package only.
func (c *checker) recordCleanups(s *summary, fn *ssa.Function) {
	for _, b := range fn.Blocks {
		ret, ok := lastInstr(b).(*ssa.Return)
		if !ok || len(ret.Results) < 2 {
			continue
		}
		for j, r := range ret.Results {
			mc, ok := r.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			f, ok := mc.Fn.(*ssa.Function)
			if !ok || c.sums[f] == nil {
				continue
			}
			for k, fp := range c.sums[f].putFree {
				if k >= len(mc.Bindings) || fp.cond {
					continue
				}
				obj := mc.Bindings[k]
				if fp.cell {
					a, ok := obj.(*ssa.Alloc)
					if !ok {
						continue
					}
					if obj = onlyStored(a); obj == nil {
						continue
					}
				}
				al := c.aliasesOf(fn, rootOf(obj), true)
				for i, r2 := range ret.Results {
					if i == j || !al[r2] {
						continue
					}
					if s.cleanup == nil {
						s.cleanup = map[int]int{}
					}
					s.cleanup[j] = i
				}
			}
		}
	}
}

// cleanupPut returns, for a call of a value that a call returned as a
// cleanup (see recordCleanups), the result of that call that the cleanup
// puts.
func (c *checker) cleanupPut(com *ssa.CallCommon) ssa.Value {
	ex, ok := com.Value.(*ssa.Extract)
	if !ok {
		return nil
	}
	call, ok := ex.Tuple.(*ssa.Call)
	if !ok {
		return nil
	}
	ce, ok := c.calleeOf(&call.Call)
	if !ok || ce.sum == nil {
		return nil
	}
	i, ok := ce.sum.cleanup[ex.Index]
	if !ok {
		return nil
	}
	for _, r := range *call.Referrers() {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i {
			return e
		}
	}
	return nil
}
