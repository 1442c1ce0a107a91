package poolvet

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// checkReadPutsSelf reports a Read method (io.Reader's signature) that puts
// its own receiver back into a pool, typically at io.EOF. The caller that
// got the reader still holds it, and io.Reader allows a Read after EOF: a
// caller that reads again (or drains the reader, or closes it) uses an
// object the next Get may already have reset for another user. Decompressors
// pooled this way raced in gRPC's gzip codec (grpc/grpc-go#8171) and in
// dgraph's snappy codec (dgraph 7cdde0b), each fixed by putting the reader
// back elsewhere (a Close, or not at all).
func (c *checker) checkReadPutsSelf(fn *ssa.Function, puts []putSite) {
	if !*enabled[checkUseAfterPut] || !isReadMethod(fn) {
		return
	}
	for i := range puts {
		p := &puts[i]
		if p.key.cell || p.field || p.key.v != fn.Params[0] {
			continue
		}
		c.report(checkUseAfterPut, p.instr.Pos(), nil,
			"Read puts its own receiver %s back into the pool, but the caller still holds the reader and io.Reader allows it to call Read again (after io.EOF too): the next Get may hand the object to another user mid-use; put it back in Close, or leave the Put to the caller",
			c.objName(p))
	}
}

// isReadMethod reports whether fn is a method Read(p []byte) (n int, err
// error), io.Reader's.
func isReadMethod(fn *ssa.Function) bool {
	sig := fn.Signature
	if sig.Recv() == nil || fn.Name() != "Read" || sig.Params().Len() != 1 || sig.Results().Len() != 2 || len(fn.Params) != 2 {
		return false
	}
	sl, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(sl.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) && isErrorType(sig.Results().At(1).Type())
}
