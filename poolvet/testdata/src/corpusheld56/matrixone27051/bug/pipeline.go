package bug

import (
	"context"
	"errors"
	"log"
	"sync"
)

// ---- pkg/objectio/ioutil ----

var _jobPool = sync.Pool{
	New: func() any {
		return new(Job)
	},
}

const JTLoad JobType = 200

func getJob(
	ctx context.Context,
	id string,
	typ JobType,
	exec JobExecutor) *Job {
	job := _jobPool.Get().(*Job)
	job.Init(ctx, id, typ, exec)
	return job
}

func putJob(job *Job) {
	job.Reset()
	_jobPool.Put(job)
}

// Queue is the wait queue (sm.Queue).
type Queue interface {
	Enqueue(any) (any, error)
}

var ErrQueueClosed = errors.New("queue closed")

type safeQueue struct {
	mu      sync.Mutex
	closed  bool
	items   []any
	onItems func(...any)
}

func (q *safeQueue) Enqueue(item any) (any, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return item, ErrQueueClosed
	}
	q.items = append(q.items, item)
	return item, nil
}

type IoPipeline struct {
	prefetch struct {
		scheduler JobScheduler
	}
	waitQ Queue
}

func (p *IoPipeline) schedulerPrefetch(job *Job) {
	if err := p.prefetch.scheduler.Schedule(job); err != nil {
		job.DoneWithErr(err)
		log.Printf("err is %v", err.Error())
		putJob(job)
	} else {
		if _, err := p.waitQ.Enqueue(job); err != nil {
			job.DoneWithErr(err)
			log.Printf("err is %v", err.Error())
			putJob(job) // want `useafterput`
		}
	}
}

func (p *IoPipeline) Prefetch(ctx context.Context, name string, exec JobExecutor) {
	job := getJob(ctx, name, JTLoad, exec)
	p.schedulerPrefetch(job)
}

func (p *IoPipeline) onWait(jobs ...any) {
	for _, item := range jobs {
		job := item.(*Job)
		res := job.WaitDone()
		if res == nil {
			log.Printf("job is %v", job.ID())
			putJob(job)
			return
		}
		if res.Err != nil {
			log.Printf("Prefetch %s err: %s", job.ID(), res.Err)
		}
		putJob(job)
	}
}
