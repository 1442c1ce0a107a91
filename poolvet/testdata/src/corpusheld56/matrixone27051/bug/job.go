// Source: https://github.com/matrixorigin/matrixone/pull/27051
// (commit 1c292cf20e113b296a3db2cb6a65e00af2ea2327,
// "fix: harden async completion ownership"; issues #27047, #27048)
//
// The objectio IoPipeline takes prefetch jobs (*tasks.Job) from a
// sync.Pool (getJob/putJob). schedulerPrefetch hands a job to the prefetch
// scheduler, which runs job.Run on a worker goroutine, and then enqueues it
// on the wait queue whose consumer waits for completion and recycles it.
// When the wait queue rejected the job (e.g. during shutdown), the fallback
// completed the job itself and put it straight back into the pool, although
// the scheduler had already accepted it and the executor still owned it:
// the same WaitGroup was completed twice and a live Job was recycled into
// the sync.Pool while it was still running.
// Fix: on a wait-queue rejection the submitter waits for the accepted job's
// real completion and then recycles it through the same terminal path as
// the wait-queue consumer (waitAndRecyclePrefetchJob).
//
// Check: useafterput (at putJob(job) in the wait-queue fallback of
// schedulerPrefetch: the job was handed to the scheduler's worker goroutine
// and is put back while that goroutine still uses it)
package bug

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// ---- pkg/vm/engine/tae/tasks ----

type JobType = uint16

type JobExecutor = func(context.Context) *JobResult

type JobResult struct {
	Err error
	Res any
}

type JobScheduler interface {
	Schedule(job *Job) error
	Stop()
}

type parallelJobScheduler struct {
	closed atomic.Bool
	wg     sync.WaitGroup
}

func NewParallelJobScheduler() *parallelJobScheduler {
	return &parallelJobScheduler{}
}

func (s *parallelJobScheduler) Stop() {
	s.closed.Store(true)
	s.wg.Wait()
}

var ErrSchedulerClosed = errors.New("scheduler closed")

func (s *parallelJobScheduler) Schedule(job *Job) (err error) {
	if s.closed.Load() {
		return ErrSchedulerClosed
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		job.Run()
	}()
	return
}

type Job struct {
	id     string
	typ    JobType
	wg     sync.WaitGroup
	ctx    context.Context
	exec   JobExecutor
	result *JobResult
}

func (job *Job) Run() {
	defer job.wg.Done()
	result := job.exec(job.ctx)
	job.result = result
}

func (job *Job) ID() string { return job.id }

func (job *Job) WaitDone() *JobResult {
	job.wg.Wait()
	return job.result
}

func (job *Job) DoneWithErr(err error) {
	defer job.wg.Done()
	job.result = &JobResult{
		Err: err,
	}
}

func (job *Job) Reset() {
	job.result = nil
	job.ctx = nil
	job.exec = nil
	job.id = ""
	job.wg = sync.WaitGroup{}
}

func (job *Job) Init(
	ctx context.Context,
	id string,
	typ JobType,
	exec JobExecutor) {
	job.ctx = ctx
	job.id = id
	job.exec = exec
	job.typ = typ
	job.wg.Add(1)
}
