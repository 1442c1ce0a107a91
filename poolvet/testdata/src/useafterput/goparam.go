package useafterput

import (
	"context"
	"sync"
	"time"
)

// A framework context, pooled by the router and lent to handlers and
// middleware, which it calls through func values.

type gpCtx struct {
	path string
	next func(*gpCtx)
}

var gpPool = sync.Pool{New: func() any { return new(gpCtx) }}

type gpHandler func(*gpCtx)

func gpServe(h gpHandler, path string) {
	c := gpPool.Get().(*gpCtx)
	c.path = path
	h(c)
	c.path = ""
	c.next = nil
	gpPool.Put(c)
}

// gpTimeout runs the rest of the chain in a goroutine and returns on the
// deadline without waiting for it.
func gpTimeout(d time.Duration) gpHandler {
	return func(c *gpCtx) {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		done := make(chan struct{})
		go func() { // want `c, a \*gpCtx \(a type this package puts into a pool\), is handed to a goroutine that may still use it when a function literal in gpTimeout returns`
			defer close(done)
			c.next(c)
		}()
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
}

// gpAudit hands the context to a goroutine by a go statement on a named
// function.
func gpAudit(c *gpCtx) {
	go gpRecord(c) // want `c, a \*gpCtx .* when gpAudit returns`
}

func gpRecord(c *gpCtx) { println(c.path) }

// A wrapper built around the pooled context, with the context in an
// interface field.

type gpContext interface{ Path() string }

func (c *gpCtx) Path() string { return c.path }

type gpWrapped struct {
	inner gpContext
	user  string
}

func gpWrap(h func(*gpWrapped)) gpHandler {
	return func(c *gpCtx) { h(&gpWrapped{inner: c}) }
}

func gpHook(w *gpWrapped) {
	go gpLog(w) // want `w, a \*gpWrapped whose field inner can hold a pooled \*gpCtx, is handed to a goroutine`
}

func gpLog(w *gpWrapped) { println(w.inner.Path(), w.user) }

var _ = []gpHandler{gpTimeout(time.Second), gpAudit, gpWrap(gpHook)}

// Silent: the function waits for the goroutine on every path.
func gpWaits(c *gpCtx) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		println(c.path)
	}()
	wg.Wait()
}

// Silent: the goroutine is given a copy of what it needs.
func gpCopies(c *gpCtx) {
	path := c.path
	go func() { println(path) }()
}

// Silent: the goroutine owns the context and puts it back itself.
func gpOwns(c *gpCtx) {
	go func() {
		println(c.path)
		gpPool.Put(c)
	}()
}

// Silent: a direct caller of the function that starts the goroutine waits
// for it (valyala/fasthttp#1205's fix); judged at the caller.
func gpWatch(c *gpCtx, exited chan<- struct{}) {
	go func() {
		defer close(exited)
		println(c.path)
	}()
}

func gpWatched(c *gpCtx) {
	exited := make(chan struct{})
	gpWatch(c, exited)
	<-exited
}

// Silent: the parameter's type is not pooled.
type gpPlain struct{ path string }

func gpPlainGo(p *gpPlain) {
	go func() { println(p.path) }()
}

var _ = []any{gpWaits, gpCopies, gpOwns, gpWatched, gpPlainGo}

// Silent: the goroutine is given a copy; the variable it captures held the
// lent context only before the copy (gin's c = c.Copy(); go func() {...}()).
func (c *gpCtx) gpCopy() *gpCtx { return &gpCtx{path: c.path} }

func gpCopyFirst(c *gpCtx) {
	c = c.gpCopy()
	go func() { println(c.path) }()
}

// Silent: on the path where the function stops waiting it marks the
// context, through a method, with a field the package's Put is guarded
// by: the server keeps a marked context out of the pool (fasthttp's
// TimeoutErrorWithCode and releaseCtx).
type gpServerCtx struct {
	timedOut *string
	path     string
}

var gpServerPool = sync.Pool{New: func() any { return new(gpServerCtx) }}

func gpRelease(c *gpServerCtx) {
	if c.timedOut != nil {
		panic("gpRelease: timed out context")
	}
	c.path = ""
	gpServerPool.Put(c)
}

func (c *gpServerCtx) gpTimeoutError(msg string) { c.gpTimeoutWith(&msg) }

func (c *gpServerCtx) gpTimeoutWith(msg *string) { c.timedOut = msg }

func gpServerTimeout(h func(*gpServerCtx), d time.Duration) func(*gpServerCtx) {
	return func(c *gpServerCtx) {
		ch := make(chan struct{}, 1)
		go func() {
			h(c)
			ch <- struct{}{}
		}()
		select {
		case <-ch:
		case <-time.After(d):
			c.gpTimeoutError("timeout")
		}
	}
}

func gpServeOne(h func(*gpServerCtx)) {
	c := gpServerPool.Get().(*gpServerCtx)
	h(c)
	if c.timedOut == nil {
		gpRelease(c)
	}
}

var _ = []any{gpCopyFirst, gpServerTimeout, gpServeOne}

// A pooled job that carries its own completion signal: the scheduler's
// goroutine runs it, and its owner puts it back only after job.wait()
// (matrixone's prefetch jobs and their WaitDone).
type gpJob struct {
	wg  sync.WaitGroup
	run func() error
	err error
}

func (j *gpJob) do() {
	defer j.wg.Done()
	j.err = j.run()
}

func (j *gpJob) wait() error {
	j.wg.Wait()
	return j.err
}

var gpJobs = sync.Pool{New: func() any { return new(gpJob) }}

type gpScheduler interface{ schedule(*gpJob) }

type gpGoScheduler struct{}

func (gpGoScheduler) schedule(j *gpJob) {
	go j.do()
}

func gpRunJob(s gpScheduler, run func() error) error {
	j := gpJobs.Get().(*gpJob)
	j.run = run
	j.wg.Add(1)
	s.schedule(j)
	err := j.wait()
	j.run, j.err = nil, nil
	gpJobs.Put(j)
	return err
}
