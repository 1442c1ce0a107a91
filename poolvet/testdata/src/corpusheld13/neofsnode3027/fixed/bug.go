// Package fixed is the fixed twin of corpusheld13/neofsnode3027: as in the
// project's fix, iterateNodesForObject waits for the submitted tasks before
// it returns on a refused submission, so the payload is no longer in use
// when the caller puts it back.
package fixed

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
			wg.Wait()
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
	putPayload(p)
	return err
}
