// Package bug reproduces the shape of panjf2000/ants commit 05fbdb8
// (https://github.com/panjf2000/ants/commit/05fbdb8d5bdb7b79a9dc063b1e3ba6ee49645731,
// "Fix race error"): the goroutine pool keeps idle workers in a slice and
// recycles dead workers through a sync.Pool (workerCache). revertWorker, run
// after every task, appended the worker to the idle slice and then also put it
// into workerCache. The same *Worker was then reachable from both: a Submit
// could take it from the idle slice while another Submit got it from
// workerCache and started a second goroutine on it, and when the worker later
// expired its goroutine put it into workerCache a second time. The fix drops
// the Put from revertWorker; a worker goes to workerCache only when its
// goroutine exits.
//
// Check: doubleput (fixed twin: only the exiting goroutine puts its worker
// into workerCache).
package bug

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

var ErrPoolClosed = errors.New("this pool has been closed")

const workerChanCap = 1

// Worker runs tasks on its own goroutine.
type Worker struct {
	pool        *Pool
	task        chan func()
	recycleTime time.Time
}

func (w *Worker) run() {
	w.pool.incRunning()
	go func() {
		for f := range w.task {
			if f == nil {
				w.pool.decRunning()
				w.pool.workerCache.Put(w)
				return
			}
			f()
			if ok := w.pool.revertWorker(w); !ok {
				break
			}
		}
	}()
}

// Pool limits the number of goroutines by recycling workers.
type Pool struct {
	capacity       int32
	running        int32
	expiryDuration time.Duration
	workers        []*Worker
	release        int32
	lock           sync.Mutex
	cond           *sync.Cond
	once           sync.Once
	workerCache    sync.Pool
}

func NewPool(size int, expiry time.Duration) *Pool {
	p := &Pool{capacity: int32(size), expiryDuration: expiry}
	p.cond = sync.NewCond(&p.lock)
	go p.periodicallyPurge()
	return p
}

func (p *Pool) incRunning() { atomic.AddInt32(&p.running, 1) }
func (p *Pool) decRunning() { atomic.AddInt32(&p.running, -1) }

func (p *Pool) Running() int { return int(atomic.LoadInt32(&p.running)) }
func (p *Pool) Cap() int     { return int(atomic.LoadInt32(&p.capacity)) }

// Submit hands task to an idle or new worker.
func (p *Pool) Submit(task func()) error {
	if atomic.LoadInt32(&p.release) == 1 {
		return ErrPoolClosed
	}
	p.retrieveWorker().task <- task
	return nil
}

func (p *Pool) retrieveWorker() *Worker {
	var w *Worker

	p.lock.Lock()
	idleWorkers := p.workers
	n := len(idleWorkers) - 1
	if n >= 0 {
		w = idleWorkers[n]
		idleWorkers[n] = nil
		p.workers = idleWorkers[:n]
		p.lock.Unlock()
	} else if p.Running() < p.Cap() {
		p.lock.Unlock()
		if cacheWorker := p.workerCache.Get(); cacheWorker != nil {
			w = cacheWorker.(*Worker)
		} else {
			w = &Worker{
				pool: p,
				task: make(chan func(), workerChanCap),
			}
		}
		w.run()
	} else {
		for {
			p.cond.Wait()
			l := len(p.workers) - 1
			if l < 0 {
				continue
			}
			w = p.workers[l]
			p.workers[l] = nil
			p.workers = p.workers[:l]
			break
		}
		p.lock.Unlock()
	}
	return w
}

// revertWorker puts a worker back into the idle list after a task.
func (p *Pool) revertWorker(worker *Worker) bool {
	if atomic.LoadInt32(&p.release) == 1 {
		return false
	}
	worker.recycleTime = time.Now()
	p.lock.Lock()
	p.workers = append(p.workers, worker)
	// Wake a Submit blocked in retrieveWorker.
	p.cond.Signal()
	p.lock.Unlock()
	return true
}

// periodicallyPurge stops workers that stayed idle longer than the expiry.
func (p *Pool) periodicallyPurge() {
	heartbeat := time.NewTicker(p.expiryDuration)
	defer heartbeat.Stop()

	for range heartbeat.C {
		currentTime := time.Now()
		p.lock.Lock()
		if atomic.LoadInt32(&p.release) == 1 {
			p.lock.Unlock()
			return
		}
		idleWorkers := p.workers
		n := -1
		for i, w := range idleWorkers {
			if currentTime.Sub(w.recycleTime) <= p.expiryDuration {
				break
			}
			n = i
			w.task <- nil
			idleWorkers[i] = nil
		}
		if n > -1 {
			p.workers = idleWorkers[n+1:]
		}
		p.lock.Unlock()
	}
}

// Release stops all idle workers.
func (p *Pool) Release() {
	p.once.Do(func() {
		atomic.StoreInt32(&p.release, 1)
		p.lock.Lock()
		for i, w := range p.workers {
			w.task <- nil
			p.workers[i] = nil
		}
		p.workers = nil
		p.lock.Unlock()
	})
}
