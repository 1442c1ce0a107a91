// Package bug reproduces the shape of scroll-tech/go-ethereum#268
// (https://github.com/scroll-tech/go-ethereum/issues/268, fixed by
// https://github.com/scroll-tech/go-ethereum/pull/284): the struct logger used
// by the debug_trace* APIs took every StructLog from loggerPool and registered
// a finalizer that clean()s it and puts it back. clean() only Resets the
// Memory and ReturnData buffers, which keeps their capacity, and the tracer
// writes a full snapshot of the EVM memory into Memory for every opcode. Each
// recycled StructLog therefore goes back holding a buffer as large as the
// biggest memory snapshot it ever took; under continuous tracing memory kept
// growing until the node ran out of it. The fix dropped the pools and
// allocates plain StructLogs.
//
// Check: unbounded (a pooled object whose buffers grow with the traced memory
// is put back with no bound on their size), reported at the Put in the
// finalizer registered by NewStructlog.
package bug

import (
	"bytes"
	"runtime"
	"sync"
)

type OpCode byte

const (
	SLOAD  OpCode = 0x54
	SSTORE OpCode = 0x55
)

type Hash [32]byte

type Storage map[Hash]Hash

func (s Storage) Copy() Storage {
	cpy := make(Storage, len(s))
	for k, v := range s {
		cpy[k] = v
	}
	return cpy
}

type ExtraData struct {
	Caller [][]byte
}

// StructLog is emitted to the EVM each cycle and lists information about the
// current internal state prior to the execution of the statement.
type StructLog struct {
	Pc            uint64
	Op            OpCode
	Gas           uint64
	GasCost       uint64
	Memory        bytes.Buffer
	MemorySize    int
	Stack         []uint64
	ReturnData    bytes.Buffer
	Storage       map[Hash]Hash
	Depth         int
	RefundCounter uint64
	ExtraData     *ExtraData
	Err           error
}

var loggerPool = sync.Pool{
	New: func() interface{} {
		return &StructLog{
			// init arrays here; other types are inited with default values
			Stack: make([]uint64, 0),
		}
	},
}

func NewStructlog(pc uint64, op OpCode, gas, cost uint64, depth int, err error) *StructLog {
	structlog := loggerPool.Get().(*StructLog)
	structlog.Pc, structlog.Op, structlog.Gas, structlog.GasCost, structlog.Depth, structlog.Err = pc, op, gas, cost, depth, err

	runtime.SetFinalizer(structlog, func(logger *StructLog) {
		logger.clean()
		loggerPool.Put(logger) // want `unbounded`
	})
	return structlog
}

func (s *StructLog) clean() {
	s.Memory.Reset()
	s.Stack = s.Stack[:0]
	s.ReturnData.Reset()
	s.Storage = nil
	s.ExtraData = nil
	s.Err = nil
}

func (s *StructLog) getOrInitExtraData() *ExtraData {
	if s.ExtraData == nil {
		s.ExtraData = &ExtraData{}
	}
	return s.ExtraData
}

// Memory is the EVM memory of the running frame.
type Memory struct{ store []byte }

func (m *Memory) Data() []byte { return m.store }
func (m *Memory) Len() int     { return len(m.store) }

type ScopeContext struct {
	Memory  *Memory
	Stack   []uint64
	Address Hash
}

type LogConfig struct {
	EnableMemory     bool
	DisableStack     bool
	DisableStorage   bool
	EnableReturnData bool
	Limit            int
}

// StructLogger collects the StructLogs of one traced transaction.
type StructLogger struct {
	cfg     LogConfig
	storage map[Hash]Storage
	logs    []*StructLog
	refund  uint64
}

func NewStructLogger(cfg *LogConfig) *StructLogger {
	l := &StructLogger{storage: make(map[Hash]Storage)}
	if cfg != nil {
		l.cfg = *cfg
	}
	return l
}

// CaptureState logs a new structured log message and pushes it out to the
// environment.
func (l *StructLogger) CaptureState(pc uint64, op OpCode, gas, cost uint64, scope *ScopeContext, rData []byte, depth int, opErr error) {
	memory := scope.Memory
	stack := scope.Stack
	// create a struct log.
	structlog := NewStructlog(pc, op, gas, cost, depth, opErr)

	// check if already accumulated the specified number of logs
	if l.cfg.Limit != 0 && l.cfg.Limit <= len(l.logs) {
		return
	}
	// Copy a snapshot of the current memory state to a new buffer
	if l.cfg.EnableMemory {
		structlog.Memory.Write(memory.Data())
		structlog.MemorySize = memory.Len()
	}
	// Copy a snapshot of the current stack state to a new buffer
	if !l.cfg.DisableStack {
		structlog.Stack = append(structlog.Stack, stack...)
	}
	if !l.cfg.DisableStorage && (op == SLOAD || op == SSTORE) && len(stack) >= 1 {
		var key Hash
		key[31] = byte(stack[len(stack)-1])
		if l.storage[scope.Address] == nil {
			l.storage[scope.Address] = make(Storage)
		}
		l.storage[scope.Address][key] = Hash{}
		structlog.Storage = l.storage[scope.Address].Copy()
		structlog.getOrInitExtraData()
	}
	if l.cfg.EnableReturnData {
		structlog.ReturnData.Write(rData)
	}
	structlog.RefundCounter = l.refund
	l.logs = append(l.logs, structlog)
}

// StructLogs returns the captured log entries.
func (l *StructLogger) StructLogs() []*StructLog { return l.logs }
