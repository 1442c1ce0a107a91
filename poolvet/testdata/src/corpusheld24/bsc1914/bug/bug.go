// Package bug reproduces the shape of bnb-chain/bsc#1914
// (https://github.com/bnb-chain/bsc/pull/1914, "core/vm: clean up evm clearly
// when get it from pool"): BSC recycles *EVM objects through vm.EvmPool.
// NewEVM takes one from the pool and re-initialises the block and tx context,
// state, config, rules, depth and callGasTemp, but not the abort flag that
// Cancel sets when a call times out. The processor puts the EVM back in a
// deferred func, so an EVM that was cancelled once comes out of the pool still
// cancelled and the next transaction stops at its first opcode. The fix
// stores false into abort in NewEVM.
//
// Check: noreset (NewEVM re-initialises a pooled EVM but forgets abort;
// reported on NewEVM).
package bug

import (
	"context"
	"math/big"
	"sync"
	"sync/atomic"
)

// EvmPool recycles EVM objects between transactions.
var EvmPool = sync.Pool{
	New: func() interface{} {
		return &EVM{}
	},
}

// EVMInterpreterPool recycles interpreters.
var EVMInterpreterPool = sync.Pool{
	New: func() interface{} {
		return &EVMInterpreter{}
	},
}

// StateDB is the account state the EVM reads and writes.
type StateDB interface {
	GetBalance(addr [20]byte) *big.Int
}

// BlockContext carries per-block information.
type BlockContext struct {
	BlockNumber *big.Int
	Time        uint64
}

// TxContext carries per-transaction information.
type TxContext struct {
	Origin   [20]byte
	GasPrice *big.Int
}

// Config holds interpreter options.
type Config struct {
	NoBaseFee bool
}

// ChainConfig is the chain's fork configuration.
type ChainConfig struct {
	LondonBlock *big.Int
}

// Rules are the fork flags active at a block.
type Rules struct {
	IsLondon bool
}

// Rules computes the active fork flags.
func (c *ChainConfig) Rules(num *big.Int) Rules {
	return Rules{IsLondon: c.LondonBlock != nil && num.Cmp(c.LondonBlock) >= 0}
}

// EVM executes contract code for one transaction at a time.
type EVM struct {
	Context BlockContext
	TxContext
	StateDB StateDB
	depth   int

	chainConfig *ChainConfig
	chainRules  Rules
	Config      Config

	interpreter *EVMInterpreter
	// abort is set by Cancel to stop a running call
	abort       atomic.Bool
	callGasTemp uint64
}

// EVMInterpreter runs bytecode.
type EVMInterpreter struct {
	evm *EVM
	pc  uint64
}

// NewEVMInterpreter takes an interpreter from its pool.
func NewEVMInterpreter(evm *EVM) *EVMInterpreter {
	in := EVMInterpreterPool.Get().(*EVMInterpreter)
	in.evm = evm
	in.pc = 0
	return in
}

// NewEVM returns an EVM for one transaction, taken from EvmPool.
func NewEVM(blockCtx BlockContext, txCtx TxContext, statedb StateDB, chainConfig *ChainConfig, config Config) *EVM { // want `noreset`
	evm := EvmPool.Get().(*EVM)
	evm.Context = blockCtx
	evm.TxContext = txCtx
	evm.StateDB = statedb
	evm.Config = config
	evm.chainConfig = chainConfig
	evm.chainRules = chainConfig.Rules(blockCtx.BlockNumber)
	evm.callGasTemp = 0
	evm.depth = 0

	evm.interpreter = NewEVMInterpreter(evm)

	return evm
}

// Interpreter returns the current interpreter.
func (evm *EVM) Interpreter() *EVMInterpreter { return evm.interpreter }

// Cancel stops any running operation; safe to call concurrently.
func (evm *EVM) Cancel() { evm.abort.Store(true) }

// Cancelled reports whether Cancel was called.
func (evm *EVM) Cancelled() bool { return evm.abort.Load() }

// Run executes code until it ends or the EVM is cancelled.
func (in *EVMInterpreter) Run(code []byte) (uint64, bool) {
	for in.pc < uint64(len(code)) {
		if in.evm.Cancelled() {
			return in.pc, false
		}
		in.pc++
	}
	return in.pc, true
}

func releaseEVM(vmenv *EVM) {
	ite := vmenv.Interpreter()
	ite.evm = nil
	EVMInterpreterPool.Put(ite)
	vmenv.interpreter = nil
	EvmPool.Put(vmenv)
}

// ApplyTransaction runs one transaction's code on a pooled EVM.
func ApplyTransaction(config *ChainConfig, header BlockContext, statedb StateDB, code []byte, cfg Config) (uint64, bool) {
	vmenv := NewEVM(header, TxContext{}, statedb, config, cfg)
	defer func() {
		releaseEVM(vmenv)
	}()
	return vmenv.Interpreter().Run(code)
}

// DoCall runs a read-only call and cancels the EVM when ctx ends.
func DoCall(ctx context.Context, config *ChainConfig, header BlockContext, statedb StateDB, code []byte) (uint64, bool) {
	vmenv := NewEVM(header, TxContext{}, statedb, config, Config{NoBaseFee: true})
	defer releaseEVM(vmenv)

	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			vmenv.Cancel()
		case <-done:
		}
	}()
	return vmenv.Interpreter().Run(code)
}
