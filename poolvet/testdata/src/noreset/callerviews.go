package noreset

import "sync"

type wireOp struct {
	code    byte
	operand []byte
	path    [][]byte
}

type opBatch struct {
	ops []wireOp
}

var opBatchPool = sync.Pool{New: func() any { return new(opBatch) }}

// decodeOps appends ops whose byte fields are views of in.
func decodeOps(dst *opBatch, in []byte) {
	p := in
	for len(p) >= 3 {
		n := int(p[1])
		if len(p) < 2+n {
			return
		}
		op := wireOp{code: p[0]}
		op.operand = p[2 : 2+n]
		op.path = append(op.path, p[2:2+n/2])
		dst.ops = append(dst.ops, op)
		p = p[2+n:]
	}
}

// The truncated elements keep views of the previous request's input
// (rostamlabs/rostam#106).
func countOps(in []byte) int {
	b := opBatchPool.Get().(*opBatch)
	defer func() {
		if cap(b.ops) > 256 {
			return
		}
		*b = opBatch{ops: b.ops[:0]}
		opBatchPool.Put(b) // want `b goes back to the pool with ops truncated but its elements not cleared`
	}()
	decodeOps(b, in)
	return len(b.ops)
}

type ownedOp struct {
	code    byte
	operand []byte
}

type ownedBatch struct {
	ops []ownedOp
}

var ownedBatchPool = sync.Pool{New: func() any { return new(ownedBatch) }}

// decodeOwned copies the input into buffers the elements own.
func decodeOwned(dst *ownedBatch, in []byte) {
	p := in
	for len(p) >= 2 {
		n := int(p[1])
		if len(p) < 2+n {
			return
		}
		op := ownedOp{code: p[0]}
		op.operand = append(op.operand, p[2:2+n]...)
		dst.ops = append(dst.ops, op)
		p = p[2+n:]
	}
}

// Silent: the elements hold copies, buffers the object keeps on purpose.
func countOwned(in []byte) int {
	b := ownedBatchPool.Get().(*ownedBatch)
	defer func() {
		if cap(b.ops) > 256 {
			return
		}
		*b = ownedBatch{ops: b.ops[:0]}
		ownedBatchPool.Put(b)
	}()
	decodeOwned(b, in)
	return len(b.ops)
}
