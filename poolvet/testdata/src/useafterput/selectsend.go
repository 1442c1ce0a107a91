package useafterput

import (
	"context"
	"sync"
)

// A send in a select case hands the object off like a plain send
// (segmentio/kafka-go#1139: the writer's queue, then ctx.Done without
// waiting for the writer).
type job struct {
	data []byte
	done chan error
}

var jobBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func submit(ctx context.Context, queue chan<- *job, data []byte) error {
	j := &job{data: data, done: make(chan error, 1)}
	select {
	case queue <- j:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func publish(ctx context.Context, queue chan<- *job) error {
	bp := jobBufs.Get().(*[]byte)
	err := submit(ctx, queue, *bp)
	jobBufs.Put(bp) // want `bp is put back into the pool while the user that submit passes it on to`
	return err
}

// Waiting for the worker on the send's path: no race. The other case
// returns before any send happened.
func submitWait(ctx context.Context, queue chan<- *job, data []byte) error {
	j := &job{data: data, done: make(chan error, 1)}
	select {
	case queue <- j:
		return <-j.done
	case <-ctx.Done():
		return ctx.Err()
	}
}

func publishWait(ctx context.Context, queue chan<- *job) error {
	bp := jobBufs.Get().(*[]byte)
	err := submitWait(ctx, queue, *bp)
	jobBufs.Put(bp)
	return err
}

// With a deferred Put the report is at the sending case, not at the
// select keyword (valyala/fasthttp#1433).
var jobPool = sync.Pool{New: func() any { return &job{done: make(chan error, 1)} }}

func submitDeferred(ctx context.Context, queue chan<- *job, data []byte) error {
	j := jobPool.Get().(*job)
	defer jobPool.Put(j)
	j.data = data
	select {
	case <-ctx.Done():
		return ctx.Err()
	case queue <- j: // want `j is handed to the receiver of this channel send here`
	}
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
