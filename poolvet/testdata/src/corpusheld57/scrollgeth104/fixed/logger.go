// Source: https://github.com/scroll-tech/go-ethereum/pull/104
// (commit 9b99f2e17425fa16d1835cbfe47f9015321faae1, "fix bug and optimize
// fill_trace logic for gc").
//
// Fixed twin: the formatPool and its finalizer were removed; FormatLogs
// allocates make([]*types.StructLogRes, 0, len(logs)) and fills fresh
// entries.
package fixed

import (
	"bytes"
	"encoding/hex"
	"fmt"
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

// NewStructLogResBasic Basic StructLogRes skeleton, Stack&Memory&Storage&ExtraData are separated from it for GC optimization;
// still need to fill in with Stack&Memory&Storage&ExtraData
func NewStructLogResBasic(pc uint64, op string, gas, gasCost uint64, depth int, refundCounter uint64, err error) *StructLogRes {
	logRes := &StructLogRes{
		Pc:            pc,
		Op:            op,
		Gas:           gas,
		GasCost:       gasCost,
		Depth:         depth,
		RefundCounter: refundCounter,
	}
	if err != nil {
		logRes.Error = err.Error()
	}
	return logRes
}

// FormatLogs formats EVM returned structured logs for json output
func FormatLogs(logs []StructLog) []*StructLogRes {
	formatted := make([]*StructLogRes, 0, len(logs))

	for _, trace := range logs {
		logRes := NewStructLogResBasic(trace.Pc, trace.Op.String(), trace.Gas, trace.GasCost, trace.Depth, trace.RefundCounter, trace.Err)
		for _, stackValue := range trace.Stack {
			logRes.Stack = append(logRes.Stack, stackValue.Hex())
		}
		for i := 0; i+32 <= trace.Memory.Len(); i += 32 {
			logRes.Memory = append(logRes.Memory, hex.EncodeToString(trace.Memory.Bytes()[i:i+32]))
		}
		if len(trace.Storage) != 0 {
			storage := make(map[string]string)
			for i, storageValue := range trace.Storage {
				storage[hex.EncodeToString(i[:])] = hex.EncodeToString(storageValue[:])
			}
			logRes.Storage = storage
		}

		formatted = append(formatted, logRes)
	}
	return formatted
}

// ExecutionResult groups all structured logs emitted by the EVM
// while replaying a transaction in debug mode.
type ExecutionResult struct {
	Gas         uint64          `json:"gas"`
	Failed      bool            `json:"failed"`
	ReturnValue string          `json:"returnValue"`
	StructLogs  []*StructLogRes `json:"structLogs"`
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
