// Source: https://github.com/matrixorigin/matrixone/pull/10810
// (commit 573c9434b1822855dad781f6c69db207e75b1365, "clean s3count after get
// compile from pool").
//
// Bug: *Compile objects come from a sync.Pool (New) and go back to it at the
// end of Run. New calls c.clear() to reset the pooled Compile, but clear()
// did not reset c.s3CounterSet, the per-statement perfcounter set that the
// file service increments through the context (WithCounterSet) and that
// fillAnalyzeInfo reports as the statement's S3 input/output counts. A
// statement running on a reused Compile therefore reported the S3 requests of
// all previous statements that used the same object.
//
// Fix: clear() calls c.s3CounterSet.FileService.ResetS3(), which resets every
// S3 counter (new Counter.Reset).
//
// Domain note: MatrixOne (a Go HTAP/analytics database) is outside the
// projects named in the brief; used because the listed ones ran dry.
//
// Check: noreset (clear, the reset function of the pooled Compile, forgets
// s3CounterSet)
package bug

import (
	"context"
	"sync"
	"sync/atomic"
)

// ---- util/metric/stats ----

type Counter struct {
	global atomic.Int64
	window atomic.Int64
}

func (c *Counter) Add(delta int64) {
	c.global.Add(delta)
	c.window.Add(delta)
}

func (c *Counter) Load() int64 { return c.global.Load() }

// ---- perfcounter ----

type FileServiceCounterSet struct {
	S3 struct {
		List        Counter
		Head        Counter
		Put         Counter
		Get         Counter
		Delete      Counter
		DeleteMulti Counter
	}
}

type CounterSet struct {
	FileService FileServiceCounterSet
}

type ctxKeyCounters struct{}

func WithCounterSet(ctx context.Context, sets ...*CounterSet) context.Context {
	return context.WithValue(ctx, ctxKeyCounters{}, sets)
}

func Update(ctx context.Context, fn func(*CounterSet)) {
	sets, _ := ctx.Value(ctxKeyCounters{}).([]*CounterSet)
	for _, set := range sets {
		fn(set)
	}
}

// ---- fileservice ----

func S3Get(ctx context.Context, key string) {
	Update(ctx, func(set *CounterSet) {
		set.FileService.S3.Get.Add(1)
	})
}

// ---- compile ----

type AnalyzeInfo struct {
	S3IOInputCount  int64
	S3IOOutputCount int64
}

type Process struct {
	Ctx context.Context
}

type Compile struct {
	sql      string
	proc     *Process
	ctx      context.Context
	anal     *AnalyzeInfo
	nodeRegs map[int32]struct{}
	cnLabel  map[string]string

	s3CounterSet CounterSet
}

var pool = sync.Pool{
	New: func() any {
		return new(Compile)
	},
}

// New is used to new an object of compile
func New(sql string, ctx context.Context, proc *Process, cnLabel map[string]string) *Compile {
	c := pool.Get().(*Compile)
	c.clear()
	c.ctx = ctx
	c.sql = sql
	c.proc = proc
	c.nodeRegs = make(map[int32]struct{})
	c.cnLabel = cnLabel
	return c
}

func (c *Compile) clear() { // want `noreset`
	c.sql = ""
	c.anal = nil
	c.ctx = nil
	c.proc = nil
	for k := range c.nodeRegs {
		delete(c.nodeRegs, k)
	}
	for k := range c.cnLabel {
		delete(c.cnLabel, k)
	}
}

// Compile generates the pipeline of the statement.
func (c *Compile) Compile() error {
	// with values
	c.proc.Ctx = WithCounterSet(c.proc.Ctx, &c.s3CounterSet)
	c.ctx = c.proc.Ctx
	c.anal = &AnalyzeInfo{}
	return nil
}

// Run executes the statement and returns the analyze info.
func (c *Compile) Run(keys []string) (info AnalyzeInfo) {
	defer func() {
		pool.Put(c)
	}()
	for _, k := range keys {
		S3Get(c.ctx, k)
	}
	c.fillAnalyzeInfo()
	return *c.anal
}

func (c *Compile) fillAnalyzeInfo() {
	// record the number of s3 requests
	c.anal.S3IOInputCount += c.s3CounterSet.FileService.S3.Put.Load()
	c.anal.S3IOInputCount += c.s3CounterSet.FileService.S3.List.Load()

	c.anal.S3IOOutputCount += c.s3CounterSet.FileService.S3.Head.Load()
	c.anal.S3IOOutputCount += c.s3CounterSet.FileService.S3.Get.Load()
	c.anal.S3IOOutputCount += c.s3CounterSet.FileService.S3.Delete.Load()
	c.anal.S3IOOutputCount += c.s3CounterSet.FileService.S3.DeleteMulti.Load()
}
