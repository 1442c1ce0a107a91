// Source: https://github.com/matrixorigin/matrixone/pull/16269
// (commit https://github.com/matrixorigin/matrixone/commit/03ee6cfa3eef0953ed810b5ef9221d88ef49d7c7,
// "[BugFix]: Fix SlicePool bugs in NormalizeL2"; issue
// https://github.com/matrixorigin/matrixone/issues/16001).
// Domain: vector search / embeddings (normalize_l2 over vecf32/vecf64
// columns in MatrixOne's vector index support).
//
// Bug: NormalizeL2Array gets a *[]float32 from arrayF32Pool, passes the
// slice to moarray.NormalizeL2 and stores whatever NormalizeL2 returns back
// into the pooled pointer before putting it back. For a zero vector
// NormalizeL2 returned v1 itself, which is the input column's bytes
// reinterpreted in place (types.BytesToArray does no copy). So the pool was
// handed memory that the source vector still owns; the next Get writes
// normalized values straight into another row/column's data. The same
// happens on the float64 path.
// Fix: NormalizeL2 no longer returns a slice; it always writes into the
// caller's pooled slice (copy(normalized, v1) for the zero vector), and the
// caller keeps its own pooled slice.
//
// Check: useafterput (at the two Puts: the pooled pointer is made to hold
// the input vector's memory, which stays in use by the column after the Put)
package fixed

import (
	"errors"
	"math"
	"sync"
	"unsafe"
)

type RealNumbers interface {
	~float32 | ~float64
}

type T int

const (
	T_array_float32 T = iota + 1
	T_array_float64
)

// BytesToArray bytes should be of little-endian format
func BytesToArray[V RealNumbers](input []byte) (res []V) {
	if len(input) == 0 {
		return nil
	}
	var zero V
	return unsafe.Slice((*V)(unsafe.Pointer(&input[0])), len(input)/int(unsafe.Sizeof(zero)))
}

func ArrayToBytes[V RealNumbers](input []V) []byte {
	if len(input) == 0 {
		return nil
	}
	var zero V
	return unsafe.Slice((*byte)(unsafe.Pointer(&input[0])), len(input)*int(unsafe.Sizeof(zero)))
}

func NormalizeL2[V RealNumbers](v1 []V, normalized []V) error {

	if len(v1) == 0 {
		return errors.New("cannot normalize empty vector")
	}

	// Compute the norm of the vector
	var sumSquares float64
	for _, val := range v1 {
		sumSquares += float64(val) * float64(val)
	}
	norm := math.Sqrt(sumSquares)
	if norm == 0 {
		copy(normalized, v1)
		return nil
	}

	// Divide each element by the norm
	for i, val := range v1 {
		normalized[i] = V(float64(val) / norm)
	}

	return nil
}

// Vector is a trimmed column of varlena values.
type Vector struct {
	typ   T
	data  [][]byte
	nulls map[uint64]bool
}

func (v *Vector) GetStrValue(i uint64) ([]byte, bool) {
	if v.nulls[i] {
		return nil, true
	}
	return v.data[i], false
}

// FunctionResult copies appended bytes into the result column.
type FunctionResult struct {
	rows [][]byte
}

func (r *FunctionResult) AppendBytes(b []byte, isNull bool) error {
	if isNull {
		r.rows = append(r.rows, nil)
		return nil
	}
	r.rows = append(r.rows, append([]byte(nil), b...))
	return nil
}

func (r *FunctionResult) AppendMustNullForBytesResult() error {
	return r.AppendBytes(nil, true)
}

var (
	arrayF32Pool = sync.Pool{
		New: func() interface{} {
			s := make([]float32, 128)
			return &s
		},
	}

	arrayF64Pool = sync.Pool{
		New: func() interface{} {
			s := make([]float64, 128)
			return &s
		},
	}
)

func NormalizeL2Array(parameters []*Vector, rs *FunctionResult, length int) error {
	source := parameters[0]

	rowCount := uint64(length)

	var inArrayF32 []float32
	var outArrayF32Ptr *[]float32
	var outArrayF32 []float32

	var inArrayF64 []float64
	var outArrayF64Ptr *[]float64
	var outArrayF64 []float64

	var data []byte
	var null bool

	for i := uint64(0); i < rowCount; i++ {
		data, null = source.GetStrValue(i)
		if null {
			_ = rs.AppendMustNullForBytesResult()
			continue
		}

		switch t := parameters[0].typ; t {
		case T_array_float32:
			inArrayF32 = BytesToArray[float32](data)

			outArrayF32Ptr = arrayF32Pool.Get().(*[]float32)
			outArrayF32 = *outArrayF32Ptr

			if cap(outArrayF32) < len(inArrayF32) {
				outArrayF32 = make([]float32, len(inArrayF32))
			} else {
				outArrayF32 = outArrayF32[:len(inArrayF32)]
			}
			_ = NormalizeL2(inArrayF32, outArrayF32)
			_ = rs.AppendBytes(ArrayToBytes[float32](outArrayF32), false)

			*outArrayF32Ptr = outArrayF32
			arrayF32Pool.Put(outArrayF32Ptr)
		case T_array_float64:
			inArrayF64 = BytesToArray[float64](data)

			outArrayF64Ptr = arrayF64Pool.Get().(*[]float64)
			outArrayF64 = *outArrayF64Ptr

			if cap(outArrayF64) < len(inArrayF64) {
				outArrayF64 = make([]float64, len(inArrayF64))
			} else {
				outArrayF64 = outArrayF64[:len(inArrayF64)]
			}
			_ = NormalizeL2(inArrayF64, outArrayF64)
			_ = rs.AppendBytes(ArrayToBytes[float64](outArrayF64), false)

			*outArrayF64Ptr = outArrayF64
			arrayF64Pool.Put(outArrayF64Ptr)
		}

	}

	return nil
}
