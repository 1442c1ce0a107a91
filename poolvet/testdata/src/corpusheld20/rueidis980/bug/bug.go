// Package bug reproduces the shape of redis/rueidis#980
// (https://github.com/redis/rueidis/pull/980): the cluster helpers MSet, MDel,
// MSetNX and JsonMSet take a *mgetcmds from the generic mgetcmdsp pool, fill
// its slice with commands, pass the slice to DoMulti and `defer
// mgetcmdsp.Put(cmds)`. When the context expires, DoMulti returns early with a
// non-Redis error while the auto-pipelining writer goroutine may still be
// reading the commands; the deferred Put then clears the slice (ResetLen) and
// hands it to the next caller under the writer. The fix passes the *mgetcmds to
// doMultiSet, which puts it back only when no result carries a non-Redis error.
// Check: useafterput (the deferred Put hands cmds back while the pipeline writer
// may still read cmds.s).
package bug

import (
	"context"
	"sync"
)

// Container is what the generic pool stores.
type Container interface {
	Capacity() int
	ResetLen(n int)
}

// Pool is a typed wrapper over sync.Pool.
type Pool[T Container] struct {
	sp sync.Pool
	fn func(capacity int) T
}

// NewPool returns a pool creating new containers with fn.
func NewPool[T Container](fn func(capacity int) T) *Pool[T] {
	return &Pool[T]{fn: fn}
}

const maxPooledCapacity = 1 << 16

// Get returns a container of the given length and at least the given capacity.
func (p *Pool[T]) Get(length, capacity int) T {
	s, ok := p.sp.Get().(T)
	if !ok {
		s = p.fn(capacity)
	} else if s.Capacity() < capacity {
		p.sp.Put(s)
		s = p.fn(capacity)
	}
	s.ResetLen(length)
	return s
}

// Put clears s and returns it to the pool.
func (p *Pool[T]) Put(s T) {
	if s.Capacity() > maxPooledCapacity {
		return
	}
	s.ResetLen(0)
	p.sp.Put(s)
}

// Completed is a built command.
type Completed struct {
	cs []string
}

// Commands returns the command arguments.
func (c Completed) Commands() []string { return c.cs }

type mgetcmds struct {
	s []Completed
}

func (r *mgetcmds) Capacity() int { return cap(r.s) }

func (r *mgetcmds) ResetLen(n int) {
	clear(r.s)
	r.s = r.s[:n]
}

var mgetcmdsp = NewPool(func(capacity int) *mgetcmds {
	return &mgetcmds{s: make([]Completed, 0, capacity)}
})

// RedisResult is the result of one command.
type RedisResult struct {
	err    error
	nonRed error
}

// Error returns the error of the result.
func (r RedisResult) Error() error {
	if r.nonRed != nil {
		return r.nonRed
	}
	return r.err
}

// NonRedisError returns a network or context error, if any.
func (r RedisResult) NonRedisError() error { return r.nonRed }

type pipeReq struct {
	multi []Completed
	resp  chan []RedisResult
}

// clusterClient pipelines commands through a background writer.
type clusterClient struct {
	queue chan pipeReq
}

func newClusterClient(write func(args []string)) *clusterClient {
	c := &clusterClient{queue: make(chan pipeReq, 64)}
	go func() {
		for req := range c.queue {
			results := make([]RedisResult, len(req.multi))
			for _, cmd := range req.multi {
				write(cmd.Commands())
			}
			req.resp <- results
		}
	}()
	return c
}

// DoMulti sends multi through the writer; it gives up when ctx is done, even
// though the writer may not have written the commands yet.
func (c *clusterClient) DoMulti(ctx context.Context, multi ...Completed) []RedisResult {
	req := pipeReq{multi: multi, resp: make(chan []RedisResult, 1)}
	select {
	case c.queue <- req:
	case <-ctx.Done():
		return ctxResults(len(multi), ctx.Err())
	}
	select {
	case res := <-req.resp:
		return res
	case <-ctx.Done():
		return ctxResults(len(multi), ctx.Err())
	}
}

func ctxResults(n int, err error) []RedisResult {
	res := make([]RedisResult, n)
	for i := range res {
		res[i].nonRed = err
	}
	return res
}

// MSet sets the given keys, grouping them into pipelined SETs.
func MSet(client *clusterClient, ctx context.Context, kvs map[string]string) map[string]error {
	if len(kvs) == 0 {
		return make(map[string]error)
	}
	cmds := mgetcmdsp.Get(0, len(kvs))
	defer mgetcmdsp.Put(cmds) // want `useafterput`
	for k, v := range kvs {
		cmds.s = append(cmds.s, Completed{cs: []string{"SET", k, v}})
	}
	return doMultiSet(client, ctx, cmds.s)
}

func doMultiSet(cc *clusterClient, ctx context.Context, cmds []Completed) (ret map[string]error) {
	ret = make(map[string]error, len(cmds))
	resps := cc.DoMulti(ctx, cmds...)
	for i, resp := range resps {
		ret[cmds[i].Commands()[1]] = resp.Error()
	}
	return ret
}
