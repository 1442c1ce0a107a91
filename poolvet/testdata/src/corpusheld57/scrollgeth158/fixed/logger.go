// Source: https://github.com/scroll-tech/go-ethereum/pull/158
// (commit 7b2b027eea250f56e07b6b2e26ce34d26e942bed, "fix: fix not using
// point for `sync.Pool` recycling": "Log slice should append the pointer but
// not the object itself. Otherwise sync.pool cannot correctly recycle it").
//
// Bug: NewStructlog takes a *StructLog from loggerPool and registers a
// finalizer that clean()s it and puts it back into the pool once the pointer
// is unreachable. CaptureState filled the pooled StructLog (Stack slice,
// Memory and ReturnData buffers) and then stored a value copy,
// `l.logs = append(l.logs, *structlog)`, dropping the pointer. The copy in
// l.logs shares the Stack backing array and the buffers' byte slices with
// the pooled object, but nothing keeps the pointer alive: the finalizer
// truncates the object and puts it back, and the next NewStructlog appends
// the next opcode's stack into the same backing array that the logged copy
// still reads in FormatLogs.
//
// Fix: logs became []*StructLog and CaptureState appends the pointer, so the
// object (and its memory) stays out of the pool while the log holds it.
//
// Check: useafterput (memory of the pooled StructLog is stored in the
// logger's logs field while the object itself is left to be put back into
// loggerPool; the report is expected at the append that stores the copy)
package fixed

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
	ReturnData    bytes.Buffer
	Storage       map[[32]byte][32]byte
	Depth         int
	RefundCounter uint64
	Err           error
}

var (
	loggerPool = sync.Pool{
		New: func() interface{} {
			return &StructLog{
				// init arrays here; other types are inited with default values
				Stack: make([]Int, 0),
			}
		},
	}
)

func NewStructlog(pc uint64, op OpCode, gas, cost uint64, depth int, err error) *StructLog {
	structlog := loggerPool.Get().(*StructLog)
	structlog.Pc, structlog.Op, structlog.Gas, structlog.GasCost, structlog.Depth, structlog.Err = pc, op, gas, cost, depth, err

	runtime.SetFinalizer(structlog, func(logger *StructLog) {
		logger.clean()
		loggerPool.Put(logger)
	})
	return structlog
}

func (s *StructLog) clean() {
	s.Memory.Reset()
	s.Stack = s.Stack[:0]
	s.ReturnData.Reset()
	s.Storage = nil
	s.Err = nil
}

type LogConfig struct {
	EnableMemory     bool
	DisableStack     bool
	EnableReturnData bool
	Limit            int
}

// ScopeContext is a trimmed vm.ScopeContext.
type ScopeContext struct {
	Memory []byte
	Stack  []Int
}

type StructLogger struct {
	cfg LogConfig

	logs   []*StructLog
	output []byte
	err    error
}

func NewStructLogger(cfg *LogConfig) *StructLogger {
	logger := &StructLogger{}
	if cfg != nil {
		logger.cfg = *cfg
	}
	return logger
}

// CaptureState logs a new structured log message and pushes it out to the environment
func (l *StructLogger) CaptureState(pc uint64, op OpCode, gas, cost uint64, scope *ScopeContext, rData []byte, depth int, opErr error) {
	// create a struct log.
	structlog := NewStructlog(pc, op, gas, cost, depth, opErr)

	// check if already accumulated the specified number of logs
	if l.cfg.Limit != 0 && l.cfg.Limit <= len(l.logs) {
		return
	}
	// Copy a snapshot of the current memory state to a new buffer
	if l.cfg.EnableMemory {
		structlog.Memory.Write(scope.Memory)
		structlog.MemorySize = len(scope.Memory)
	}
	// Copy a snapshot of the current stack state to a new buffer
	if !l.cfg.DisableStack {
		structlog.Stack = append(structlog.Stack, scope.Stack...)
	}
	if l.cfg.EnableReturnData {
		structlog.ReturnData.Write(rData)
	}

	l.logs = append(l.logs, structlog)
}

// StructLogs returns the captured log entries.
func (l *StructLogger) StructLogs() []*StructLog { return l.logs }

type StructLogRes struct {
	Pc     uint64
	Op     string
	Gas    uint64
	Depth  int
	Stack  []string
	Memory []string
}

// FormatLogs formats EVM returned structured logs for json output
func FormatLogs(logs []*StructLog) []*StructLogRes {
	formatted := make([]*StructLogRes, 0, len(logs))

	for _, trace := range logs {
		logRes := &StructLogRes{Pc: trace.Pc, Op: trace.Op.String(), Gas: trace.Gas, Depth: trace.Depth}
		for _, stackValue := range trace.Stack {
			logRes.Stack = append(logRes.Stack, stackValue.Hex())
		}
		for i := 0; i+32 <= trace.Memory.Len(); i += 32 {
			logRes.Memory = append(logRes.Memory, hex.EncodeToString(trace.Memory.Bytes()[i:i+32]))
		}
		formatted = append(formatted, logRes)
	}
	return formatted
}
