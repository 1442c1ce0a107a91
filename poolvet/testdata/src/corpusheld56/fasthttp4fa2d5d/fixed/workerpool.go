// Source: https://github.com/valyala/fasthttp/commit/4fa2d5db396a0d1427daf30bb596bedab414d891
// ("workerpool: bugfix: do not return workerChan to ready pool on panic").
//
// Bug: fasthttp's workerPool keeps idle *workerChan values in two pools: the
// wp.ready free list (workers waiting for a connection, refilled by
// wp.release) and the sync.Pool wp.workerChanPool (channels of workers whose
// goroutine has exited, Put by the goroutine started in getCh once workerFunc
// returns). When the connection handler panicked, workerFunc's deferred
// function recovered, closed the connection and called wp.release(ch), which
// appended ch to wp.ready; workerFunc then returned and the goroutine in getCh
// put the same ch into workerChanPool. The channel was now in both pools: getCh
// could hand it out from wp.ready (to a goroutine that no longer exists) and
// from workerChanPool to a new worker at the same time.
//
// Fix: the deferred function only closes the connection on panic and no longer
// returns ch to the ready pool; the worker's channel goes back only through
// workerChanPool.Put.
//
// Check: doubleput (after the deferred wp.release(ch) already returned ch to
// the ready pool, the goroutine in getCh puts it into workerChanPool again)
package fixed

import (
	"log"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

var errHijacked = &net.OpError{Op: "hijacked"}

type workerPool struct {
	// Function for serving server connections.
	// It must leave c unclosed.
	WorkerFunc func(c net.Conn) error

	MaxWorkersCount int

	LogAllErrors bool

	Logger *log.Logger

	lock         sync.Mutex
	workersCount int
	mustStop     bool

	ready []*workerChan

	workerChanPool sync.Pool
}

type workerChan struct {
	lastUseTime time.Time
	ch          chan net.Conn
}

const workerChanCap = 1

func (wp *workerPool) Serve(c net.Conn) bool {
	ch := wp.getCh()
	if ch == nil {
		return false
	}
	ch.ch <- c
	return true
}

func (wp *workerPool) getCh() *workerChan {
	var ch *workerChan
	createWorker := false

	wp.lock.Lock()
	ready := wp.ready
	n := len(ready) - 1
	if n < 0 {
		if wp.workersCount < wp.MaxWorkersCount {
			createWorker = true
			wp.workersCount++
		}
	} else {
		ch = ready[n]
		ready[n] = nil
		wp.ready = ready[:n]
	}
	wp.lock.Unlock()

	if ch == nil {
		if !createWorker {
			return nil
		}
		vch := wp.workerChanPool.Get()
		if vch == nil {
			vch = &workerChan{
				ch: make(chan net.Conn, workerChanCap),
			}
		}
		ch = vch.(*workerChan)
		go func() {
			wp.workerFunc(ch)
			wp.workerChanPool.Put(vch)
		}()
	}
	return ch
}

func (wp *workerPool) release(ch *workerChan) bool {
	ch.lastUseTime = time.Now()
	wp.lock.Lock()
	if wp.mustStop {
		wp.lock.Unlock()
		return false
	}
	wp.ready = append(wp.ready, ch)
	wp.lock.Unlock()
	return true
}

func (wp *workerPool) workerFunc(ch *workerChan) {
	var c net.Conn

	defer func() {
		if r := recover(); r != nil {
			wp.Logger.Printf("panic: %s\nStack trace:\n%s", r, debug.Stack())
			if c != nil {
				c.Close()
			}
		}

		wp.lock.Lock()
		wp.workersCount--
		wp.lock.Unlock()
	}()

	var err error
	for c = range ch.ch {
		if c == nil {
			break
		}

		if err = wp.WorkerFunc(c); err != nil && err != errHijacked {
			errStr := err.Error()
			if wp.LogAllErrors || !(strings.Contains(errStr, "broken pipe") ||
				strings.Contains(errStr, "reset by peer") ||
				strings.Contains(errStr, "i/o timeout")) {
				wp.Logger.Printf("error when serving connection %q<->%q: %s", c.LocalAddr(), c.RemoteAddr(), err)
			}
		}
		if err != errHijacked {
			c.Close()
		}
		c = nil

		if !wp.release(ch) {
			break
		}
	}
}
