// Source: https://github.com/matrixorigin/matrixone/pull/11382
// (commit 8404a1f1d48608d10a6ed56b94f84f3c8e355e95, "clean compile before
// put compile to pool").
//
// Bug: Compile.Run puts the *Compile back into the sync.Pool in a deferred
// function, and the pooled object was only cleared when the next user took
// it out of the pool (New calls c.clear()). Callers kept using the Compile
// after Run returned: txnExecutor.Exec (and the frontend's
// TxnComputationWrapper.GetAffectedRows) read c.GetAffectedRows() after
// c.Run(0). Under high concurrency another statement already had the same
// Compile from the pool and had cleared it, so the caller read a wrong
// affected-rows count (the commit message describes exactly this).
//
// Fix: Run returns a *RunResult carrying AffectRows and callers read it from
// there; the Compile is cleared in putCompile before it goes back to the pool.
//
// Domain note: MatrixOne (a Go HTAP/analytics database) is outside the
// projects named in the brief; used because the listed ones ran dry.
//
// Check: useafterput (Exec reads c.GetAffectedRows() after c.Run put c back
// into the pool)
package fixed

import (
	"context"
	"sync"
	"sync/atomic"
)

type Batch struct{ Rows int }

type RunResult struct {
	AffectRows uint64
}

type AnalyzeInfo struct{ InputRows int64 }

type anaylze struct{ analInfos []*AnalyzeInfo }

type Process struct {
	Ctx             context.Context
	valueScanBatchs map[[16]byte]*Batch
}

func (proc *Process) CleanValueScanBatchs() {
	for k := range proc.valueScanBatchs {
		delete(proc.valueScanBatchs, k)
	}
}

type Compile struct {
	sql        string
	ctx        context.Context
	proc       *Process
	anal       *anaylze
	affectRows atomic.Uint64
	fill       func(*Batch) error
	batches    []*Batch
}

var pool = sync.Pool{
	New: func() any {
		return new(Compile)
	},
}

var analPool = sync.Pool{
	New: func() any {
		return new(AnalyzeInfo)
	},
}

// New is used to new an object of compile
func New(sql string, ctx context.Context, proc *Process) *Compile {
	c := pool.Get().(*Compile)
	c.ctx = ctx
	c.sql = sql
	c.proc = proc
	return c
}

func putCompile(c *Compile) {
	if c == nil {
		return
	}
	if c.anal != nil {
		for i := range c.anal.analInfos {
			analPool.Put(c.anal.analInfos[i])
		}
		c.anal.analInfos = nil
	}

	c.proc.CleanValueScanBatchs()
	c.clear()
	pool.Put(c)
}

func (c *Compile) clear() {
	c.sql = ""
	c.ctx = nil
	c.proc = nil
	c.anal = nil
	c.fill = nil
	c.batches = nil
	c.affectRows.Store(0)
}

func (c *Compile) setAffectedRows(n uint64) {
	c.affectRows.Store(n)
}

func (c *Compile) getAffectedRows() uint64 {
	affectRows := c.affectRows.Load()
	return affectRows
}

func (c *Compile) Compile(fill func(*Batch) error, batches []*Batch) error {
	c.fill = fill
	c.batches = batches
	c.anal = &anaylze{analInfos: []*AnalyzeInfo{analPool.Get().(*AnalyzeInfo)}}
	return nil
}

func (c *Compile) runOnce() error {
	var n uint64
	for _, bat := range c.batches {
		if err := c.fill(bat); err != nil {
			return err
		}
		n += uint64(bat.Rows)
	}
	c.setAffectedRows(n)
	return nil
}

// Run executes a single sql according to its scope
func (c *Compile) Run(_ uint64) (*RunResult, error) {
	defer func() {
		putCompile(c)
	}()
	result := &RunResult{
		AffectRows: 0,
	}
	if err := c.runOnce(); err != nil {
		return nil, err
	}
	result.AffectRows = c.getAffectedRows()
	return result, nil
}

// ---- sql_executor ----

type Result struct {
	Batches      []*Batch
	AffectedRows uint64
}

type txnExecutor struct {
	ctx  context.Context
	proc *Process
}

func (exec *txnExecutor) Exec(sql string, input []*Batch) (Result, error) {
	var batches []*Batch
	c := New(sql, exec.ctx, exec.proc)
	err := c.Compile(func(bat *Batch) error {
		batches = append(batches, bat)
		return nil
	}, input)
	if err != nil {
		return Result{}, err
	}
	var runResult *RunResult
	runResult, err = c.Run(0)
	if err != nil {
		return Result{}, err
	}

	var result Result
	result.Batches = batches
	result.AffectedRows = runResult.AffectRows
	return result, nil
}
