// Source: https://github.com/roadrunner-server/sdk/commit/8c9af380389053798f3b64c6a17cbc1c97de6f3b
// ("bug(pool): very fast context dealine").
//
// Bug: Worker.ExecWithTTL leases a result channel from tw.chPool (a
// sync.Pool of `chan wexec`) with `c := tw.getCh(); defer tw.putCh(c)`, hands
// it (and the caller's payload) to a goroutine that runs execPayload and sends
// the result on c, and then selects on ctx.Done() and c. When the context is
// cancelled very fast, ExecWithTTL returns at once: the deferred putCh puts c
// back into the pool while the goroutine still holds it and later sends its
// wexec into it, so the next ExecWithTTL that gets this channel from the pool
// receives the previous request's result. As the commit says, the payload
// pointer "may be held by goroutine AND at the same time, by sync.Pool".
//
// Fix: in the ctx.Done() branch, wait for the goroutine (`<-c`) before
// returning, so the channel is only put back after the goroutine exited.
//
// Check: useafterput (the go statement hands the pooled channel to a goroutine
// that outlives the function while `defer tw.putCh(c)` returns it to the pool).
package bug

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Payload stands in for github.com/roadrunner-server/api/v2/payload.Payload.
type Payload struct {
	Codec   byte
	Context []byte
	Body    []byte
}

const (
	StateReady int64 = iota
	StateWorking
	StateErrored
)

// BaseProcess is the trimmed worker.BaseProcess interface.
type BaseProcess interface {
	State() int64
	SetState(s int64)
	RegisterExec()
	SetLastUsed(lu uint64)
	Kill() error
	Send(data []byte) error
	Receive() ([]byte, error)
}

var (
	errSoftJob = errors.New("soft job error")
	errExecTTL = errors.New("exec TTL")
)

type Worker struct {
	process BaseProcess
	bPool   sync.Pool
	chPool  sync.Pool
}

// From creates SyncWorker from BaseProcess
func From(process BaseProcess) *Worker {
	return &Worker{
		process: process,
		bPool: sync.Pool{New: func() interface{} {
			return new(bytes.Buffer)
		}},
		chPool: sync.Pool{New: func() interface{} {
			return make(chan wexec, 1)
		}},
	}
}

type wexec struct {
	payload *Payload
	err     error
}

// ExecWithTTL executes payload with TTL timeout.
func (tw *Worker) ExecWithTTL(ctx context.Context, p *Payload) (*Payload, error) {
	if len(p.Body) == 0 && len(p.Context) == 0 {
		return nil, errors.New("payload can not be empty")
	}

	c := tw.getCh()
	defer tw.putCh(c)

	// worker was killed before it started to work (supervisor)
	if tw.process.State() != StateReady {
		return nil, fmt.Errorf("process is not ready (%d)", tw.process.State())
	}
	// set last used time
	tw.process.SetLastUsed(uint64(time.Now().UnixNano()))
	tw.process.SetState(StateWorking)

	go func() { // want `useafterput`
		rsp, err := tw.execPayload(p)
		if err != nil {
			// just to be more verbose
			if !errors.Is(err, errSoftJob) {
				tw.process.SetState(StateErrored)
				tw.process.RegisterExec()
			}
			c <- wexec{
				err: err,
			}
			return
		}

		if tw.process.State() != StateWorking {
			tw.process.RegisterExec()
			c <- wexec{
				payload: rsp,
				err:     nil,
			}
			return
		}

		tw.process.SetState(StateReady)
		tw.process.RegisterExec()

		c <- wexec{
			payload: rsp,
			err:     nil,
		}
	}()

	select {
	// exec TTL reached
	case <-ctx.Done():
		err := tw.process.Kill()
		if err != nil {
			// append timeout error
			return nil, errors.Join(err, errExecTTL, ctx.Err())
		}
		return nil, errors.Join(errExecTTL, ctx.Err())
	case res := <-c:
		if res.err != nil {
			return nil, res.err
		}
		return res.payload, nil
	}
}

func (tw *Worker) execPayload(p *Payload) (*Payload, error) {
	// obtain a buffer
	buf := tw.get()

	buf.Write(p.Context)
	buf.Write(p.Body)

	err := tw.process.Send(buf.Bytes())
	// return buffer
	tw.put(buf)
	if err != nil {
		return nil, err
	}

	data, err := tw.process.Receive()
	if err != nil {
		return nil, err
	}

	pld := &Payload{
		Codec: p.Codec,
		Body:  make([]byte, len(data)),
	}
	copy(pld.Body, data)
	return pld, nil
}

func (tw *Worker) get() *bytes.Buffer {
	return tw.bPool.Get().(*bytes.Buffer)
}

func (tw *Worker) put(b *bytes.Buffer) {
	b.Reset()
	tw.bPool.Put(b)
}

func (tw *Worker) getCh() chan wexec {
	return tw.chPool.Get().(chan wexec)
}

func (tw *Worker) putCh(ch chan wexec) {
	// just check if the chan is not empty
	select {
	case <-ch:
		tw.chPool.Put(ch)
	default:
		tw.chPool.Put(ch)
	}
}
