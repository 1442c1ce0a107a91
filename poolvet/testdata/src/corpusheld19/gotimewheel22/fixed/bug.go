// Package bug is the fixed twin of rfyiamcool/go-timewheel#22
// (https://github.com/rfyiamcool/go-timewheel/issues/22): as in the project's fix
// (a9aaf85 "fix remove bug"), tasks are no longer recycled through a pool, so a
// task that fired and is later stopped is only unlinked from the wheel.
// Check: doubleput (none expected here).
package bug

import (
	"context"
	"time"
)

type taskID int64

type Task struct {
	delay    time.Duration
	id       taskID
	round    int
	callback func()

	async  bool
	stop   bool
	circle bool
}

type TimeWheel struct {
	randomID      int64
	tick          time.Duration
	bucketsNum    int
	buckets       []map[taskID]*Task
	bucketIndexes map[taskID]int
	currentIndex  int

	addC    chan *Task
	removeC chan *Task
	stopC   chan struct{}
}

func NewTimeWheel(tick time.Duration, bucketsNum int) *TimeWheel {
	tw := &TimeWheel{
		tick:          tick,
		bucketsNum:    bucketsNum,
		bucketIndexes: make(map[taskID]int),
		buckets:       make([]map[taskID]*Task, bucketsNum),
		addC:          make(chan *Task, 1024),
		removeC:       make(chan *Task, 1024),
		stopC:         make(chan struct{}),
	}
	for i := range tw.buckets {
		tw.buckets[i] = make(map[taskID]*Task)
	}
	return tw
}

func (tw *TimeWheel) scheduler(ticks <-chan time.Time) {
	for {
		select {
		case <-ticks:
			tw.handleTick()
		case task := <-tw.addC:
			tw.store(task)
		case task := <-tw.removeC:
			tw.remove(task)
		case <-tw.stopC:
			return
		}
	}
}

func (tw *TimeWheel) collectTask(task *Task) {
	index := tw.bucketIndexes[task.id]
	delete(tw.bucketIndexes, task.id)
	delete(tw.buckets[index], task.id)
}

func (tw *TimeWheel) handleTick() {
	bucket := tw.buckets[tw.currentIndex]
	for _, task := range bucket {
		if task.stop {
			tw.collectTask(task)
			continue
		}
		if task.round > 0 {
			task.round--
			continue
		}
		if task.async {
			go task.callback()
		} else {
			task.callback()
		}
		if task.circle {
			tw.collectTask(task)
			tw.store(task)
			continue
		}
		// fired: unlink it; the Timer may still point at it
		tw.collectTask(task)
	}
	tw.currentIndex = (tw.currentIndex + 1) % tw.bucketsNum
}

func (tw *TimeWheel) addAny(delay time.Duration, callback func(), circle, async bool) *Task {
	if delay <= 0 {
		delay = tw.tick
	}
	tw.randomID++

	task := new(Task)
	task.delay = delay
	task.id = taskID(tw.randomID)
	task.callback = callback
	task.circle = circle
	task.async = async

	tw.addC <- task
	return task
}

func (tw *TimeWheel) store(task *Task) {
	index := (tw.currentIndex + int(task.delay/tw.tick)) % tw.bucketsNum
	task.round = int(task.delay/tw.tick) / tw.bucketsNum
	tw.bucketIndexes[task.id] = index
	tw.buckets[index][task.id] = task
}

func (tw *TimeWheel) Remove(task *Task) error {
	tw.removeC <- task
	return nil
}

func (tw *TimeWheel) remove(task *Task) {
	tw.collectTask(task)
}

// Timer is like time.Timer; it keeps the task it scheduled.
type Timer struct {
	task   *Task
	tw     *TimeWheel
	fn     func()
	stopFn func()

	C chan bool

	cancel context.CancelFunc
	Ctx    context.Context
}

func (tw *TimeWheel) AfterFunc(delay time.Duration, callback func()) *Timer {
	queue := make(chan bool, 1)
	task := tw.addAny(delay, func() {
		callback()
		notifyChannel(queue)
	}, false, true)

	ctx, cancel := context.WithCancel(context.Background())
	return &Timer{
		tw:     tw,
		C:      queue,
		task:   task,
		Ctx:    ctx,
		cancel: cancel,
		fn:     callback,
	}
}

func (t *Timer) Stop() {
	if t.stopFn != nil {
		t.stopFn()
	}
	t.task.stop = true
	t.cancel()
	t.tw.Remove(t.task)
}

func notifyChannel(q chan bool) {
	select {
	case q <- true:
	default:
	}
}
