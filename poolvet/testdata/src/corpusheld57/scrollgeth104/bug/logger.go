// Source: https://github.com/scroll-tech/go-ethereum/pull/104
// (commit 9b99f2e17425fa16d1835cbfe47f9015321faae1, "fix bug and optimize
// fill_trace logic for gc").
//
// Bug: FormatLogs took its result slice from formatPool, a sync.Pool holding
// []types.StructLogRes values, and registered a finalizer on &formatted that
// "cleaned" the entries and put the slice back with formatPool.Put(*format).
// The slice goes back into the pool with its full length (it is never
// truncated to [:0]), and the cleaning loop only modifies copies of the
// entries (`for _, res := range *format`), so the next FormatLogs appends its
// logs after the previous caller's entries, and formatted[index] points at
// stale ones: the next trace result carries the old StructLogRes values. The
// Put also stores a slice value (not a pointer) in the sync.Pool.
//
// Fix: the pool and the finalizer were removed; FormatLogs allocates
// make([]*types.StructLogRes, 0, len(logs)) and fills fresh entries.
//
// Check: noreset (the slice is put back with its length and its entries
// untouched, so the next Get sees the last user's results; the report is
// expected at the Put in the finalizer), nonpointer (the same Put stores a
// []StructLogRes value in a sync.Pool)
package bug

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"runtime"
	"sync"
)

type OpCode byte

func (op OpCode) String() string { return fmt.Sprintf("opcode 0x%x", byte(op)) }

// Int is a trimmed uint256.Int.
type Int [4]uint64

func (z *Int) Hex() string { return fmt.Sprintf("0x%x%016x%016x%016x", z[3], z[2], z[1], z[0]) }

// StructLog is emitted to the EVM each cycle and lists information about the current internal state
// prior to the execution of the statement.
type StructLog struct {
	Pc            uint64
	Op            OpCode
	Gas           uint64
	GasCost       uint64
	Memory        bytes.Buffer
	MemorySize    int
	Stack         []Int
	Storage       map[[32]byte][32]byte
	Depth         int
	RefundCounter uint64
	Err           error
}

// ErrorString formats the log's error as a string.
func (s *StructLog) ErrorString() string {
	if s.Err != nil {
		return s.Err.Error()
	}
	return ""
}

// StructLogRes stores a structured log emitted by the EVM while replaying a
// transaction in debug mode (core/types/l2trace.go).
type StructLogRes struct {
	Pc            uint64            `json:"pc"`
	Op            string            `json:"op"`
	Gas           uint64            `json:"gas"`
	GasCost       uint64            `json:"gasCost"`
	Depth         int               `json:"depth"`
	Error         string            `json:"error,omitempty"`
	Stack         []string          `json:"stack,omitempty"`
	Memory        []string          `json:"memory,omitempty"`
	Storage       map[string]string `json:"storage,omitempty"`
	RefundCounter uint64            `json:"refund,omitempty"`
}

var (
	formatPool = sync.Pool{
		New: func() interface{} {
			return make([]StructLogRes, 0, 128)
		},
	}
)

// FormatLogs formats EVM returned structured logs for json output
func FormatLogs(logs []StructLog) []StructLogRes {
	formatted := formatPool.Get().([]StructLogRes)
	runtime.SetFinalizer(&formatted, func(format *[]StructLogRes) {
		for _, res := range *format {
			res.Storage = nil
			res.Stack = res.Stack[:0]
			res.Memory = res.Memory[:0]
		}
		formatPool.Put(*format) // want `noreset` `nonpointer`
	})

	for index, trace := range logs {
		formatted = append(formatted, StructLogRes{
			Pc:            trace.Pc,
			Op:            trace.Op.String(),
			Gas:           trace.Gas,
			GasCost:       trace.GasCost,
			Depth:         trace.Depth,
			RefundCounter: trace.RefundCounter,
			Error:         trace.ErrorString(),
		})
		if len(trace.Stack) != 0 {
			if formatted[index].Stack == nil {
				formatted[index].Stack = make([]string, 0, len(trace.Stack))
			}
			for _, stackValue := range trace.Stack {
				formatted[index].Stack = append(formatted[index].Stack, stackValue.Hex())
			}
		}
		if trace.Memory.Len() != 0 {
			if formatted[index].Memory == nil {
				formatted[index].Memory = make([]string, 0, (trace.Memory.Len()+31)/32)
			}
			for i := 0; i+32 <= trace.Memory.Len(); i += 32 {
				formatted[index].Memory = append(formatted[index].Memory, hex.EncodeToString(trace.Memory.Bytes()[i:i+32]))
			}
		}
		if len(trace.Storage) != 0 {
			storage := make(map[string]string)
			for i, storageValue := range trace.Storage {
				storage[hex.EncodeToString(i[:])] = hex.EncodeToString(storageValue[:])
			}
			formatted[index].Storage = storage
		}
	}
	return formatted
}

// ExecutionResult groups all structured logs emitted by the EVM
// while replaying a transaction in debug mode.
type ExecutionResult struct {
	Gas         uint64         `json:"gas"`
	Failed      bool           `json:"failed"`
	ReturnValue string         `json:"returnValue"`
	StructLogs  []StructLogRes `json:"structLogs"`
}

// traceTx (eth/tracers/api.go) formats the StructLogger output.
func traceTx(gas uint64, failed bool, ret []byte, logs []StructLog) *ExecutionResult {
	return &ExecutionResult{
		Gas:         gas,
		Failed:      failed,
		ReturnValue: fmt.Sprintf("%x", ret),
		StructLogs:  FormatLogs(logs),
	}
}
