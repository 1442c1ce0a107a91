// Package fixed is the fix of rostamlabs/rostam#106
// (https://github.com/rostamlabs/rostam/pull/106, commit 682b192 per the
// review thread): the populated Ops and Rets are cleared before the slices
// are re-sliced and the object goes back to the pool. The cap guard is kept
// as in the bug twin.
package fixed

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
		clear(a.Ops)
		clear(a.Rets)
		*a = OperateArgs{Ops: a.Ops[:0], Rets: a.Rets[:0]}
		operateArgsPool.Put(a)
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
