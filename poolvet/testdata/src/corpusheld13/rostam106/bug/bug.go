// Package bug reproduces the shape of rostamlabs/rostam#106
// (https://github.com/rostamlabs/rostam/pull/106, review thread on
// ops/operate.go): handleOperate decodes the request into an OperateArgs
// taken from a sync.Pool and, in a deferred closure, re-slices Ops and Rets
// to [:0] and puts the object back. Re-slicing only shortens the headers:
// the backing arrays still hold the path keys, operand bytes and names of
// the previous request, so the idle pooled object keeps that request's
// buffers alive. The fix clears the populated slices before recycling.
//
// The cap guard before the Put is not in the source; it is here so that the
// case is only about the stale elements (the decoder grows Ops and Rets).
//
// Check: noreset (slice fields of reference-holding elements truncated to
// [:0] without clearing, just before the Put in a deferred closure).
package bug

import (
	"encoding/binary"
	"errors"
	"sync"
)

const maxPooledOps = 256

// Op is one operation: a bin name, a path of map/list keys into it, and an
// operand, all sub-slices or strings of the request.
type Op struct {
	Code    byte
	Bin     string
	Path    [][]byte
	Operand []byte
}

// Ret names a bin whose result is returned.
type Ret struct {
	Bin string
}

type OperateArgs struct {
	Ops  []Op
	Rets []Ret
}

var operateArgsPool = sync.Pool{New: func() any { return new(OperateArgs) }}

var errShort = errors.New("operate: short args")

// DecodeOperateArgsInto appends the decoded ops and rets to dst; the byte
// fields are sub-slices of args.
func DecodeOperateArgsInto(dst *OperateArgs, args []byte) error {
	if len(args) < 2 {
		return errShort
	}
	nops, nrets := int(args[0]), int(args[1])
	p := args[2:]
	for i := 0; i < nops; i++ {
		if len(p) < 4 {
			return errShort
		}
		code, binLen, depth, opLen := p[0], int(p[1]), int(p[2]), int(p[3])
		p = p[4:]
		if len(p) < binLen {
			return errShort
		}
		op := Op{Code: code, Bin: string(p[:binLen])}
		p = p[binLen:]
		for d := 0; d < depth; d++ {
			if len(p) < 2 {
				return errShort
			}
			kl := int(binary.BigEndian.Uint16(p))
			if len(p) < 2+kl {
				return errShort
			}
			op.Path = append(op.Path, p[2:2+kl])
			p = p[2+kl:]
		}
		if len(p) < opLen {
			return errShort
		}
		op.Operand = p[:opLen]
		p = p[opLen:]
		dst.Ops = append(dst.Ops, op)
	}
	for i := 0; i < nrets; i++ {
		if len(p) < 1 || len(p) < 1+int(p[0]) {
			return errShort
		}
		dst.Rets = append(dst.Rets, Ret{Bin: string(p[1 : 1+int(p[0])])})
		p = p[1+int(p[0]):]
	}
	return nil
}

// TxContext stands for the transaction the ops run in.
type TxContext struct {
	apply func(op *Op) ([]byte, error)
}

func handleOperate(tx *TxContext, args []byte) ([]byte, error) {
	a, _ := operateArgsPool.Get().(*OperateArgs)
	defer func() {
		if cap(a.Ops) > maxPooledOps || cap(a.Rets) > maxPooledOps {
			return
		}
		*a = OperateArgs{Ops: a.Ops[:0], Rets: a.Rets[:0]}
		operateArgsPool.Put(a) // want `noreset`
	}()
	if err := DecodeOperateArgsInto(a, args); err != nil {
		return nil, err
	}
	var out []byte
	for i := range a.Ops {
		res, err := tx.apply(&a.Ops[i])
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
	}
	return out, nil
}
