// Package bug reproduces the shape of nspcc-dev/neofs-node#3027
// (https://github.com/nspcc-dev/neofs-node/pull/3027): when the worker pool
// refused a task, iterateNodesForObject returned errIncompletePut at once,
// without wg.Wait(). Tasks already submitted were still sending the
// object's payload, which came from the package's sync.Pool of temporary
// payloads and went back to that pool as soon as the PUT returned, so
// concurrent PUTs corrupted each other's data.
//
// Check: useafterput (hand-off: the pooled payload is captured by tasks
// that run on other goroutines, and the callee can return before they
// finish; the caller then puts the payload back, so the report is at that
// Put).
package bug

import (
	"errors"
	"sync"
)

var errIncompletePut = errors.New("incomplete object PUT")
var errPoolBusy = errors.New("worker pool is busy")

const maxPayloadCap = 4 << 20

var payloadPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func getPayload() *[]byte { return payloadPool.Get().(*[]byte) }

func putPayload(p *[]byte) {
	if cap(*p) > maxPayloadCap {
		return
	}
	*p = (*p)[:0]
	payloadPool.Put(p)
}

// workerPool runs at most cap(slots) tasks at once and refuses the rest,
// like an ants pool in non-blocking mode.
type workerPool struct {
	slots chan struct{}
}

func (p *workerPool) Submit(task func()) error {
	select {
	case p.slots <- struct{}{}:
	default:
		return errPoolBusy
	}
	go func() {
		defer func() { <-p.slots }()
		task()
	}()
	return nil
}

type nodeDesc struct {
	addr string
	sent []byte
}

func (n *nodeDesc) replicate(payload []byte) error {
	n.sent = append(n.sent[:0], payload...)
	return nil
}

type distributedTarget struct {
	pool  *workerPool
	nodes []*nodeDesc
}

func (t *distributedTarget) iterateNodesForObject(payload []byte) error {
	var wg sync.WaitGroup
	for _, n := range t.nodes {
		wg.Add(1)
		if err := t.pool.Submit(func() {
			defer wg.Done()
			_ = n.replicate(payload)
		}); err != nil {
			wg.Done()
			return errIncompletePut
		}
	}
	wg.Wait()
	return nil
}

func (t *distributedTarget) Put(data []byte) error {
	p := getPayload()
	*p = append(*p, data...)
	err := t.iterateNodesForObject(*p)
	putPayload(p) // want `useafterput`
	return err
}
