// Package bug reproduces the shape of redis/rueidis#980 (https://github.com/redis/rueidis/pull/980):
// the MSet/MDel/MSetNX helpers take a *mgetcmds from the mgetcmdsp pool, defer
// mgetcmdsp.Put(cmds) and pass cmds.s to DoMulti. DoMulti hands the command
// slice to the auto-pipelining writer goroutine and returns early with a
// context error when the deadline expires, while the writer may still be
// reading that slice. The helper then returns, the deferred Put recycles the
// buffer, and the next helper call overwrites commands the writer is still
// sending. The fix passes the pooled buffer into doMultiSet, which puts it
// back only when no response carries a non-Redis (context/network) error.
// Check: useafterput (fixed twin: the buffer goes back to the pool only after
// every reply came from Redis, so the writer is done with it).
package bug

import (
	"context"
	"sync"
)

// Completed is a built command.
type Completed struct {
	cs []string
}

// Commands returns the command tokens.
func (c Completed) Commands() []string { return c.cs }

// PutCompletedForce recycles the command tokens.
func PutCompletedForce(c Completed) {}

// RedisResult is one reply.
type RedisResult struct {
	err      error
	nonRedis bool
}

// Error returns the reply error.
func (r RedisResult) Error() error { return r.err }

// NonRedisError returns the error if it did not come from Redis.
func (r RedisResult) NonRedisError() error {
	if r.nonRedis {
		return r.err
	}
	return nil
}

type mgetcmds struct {
	s []Completed
}

type mgetcmdsPool struct {
	sp sync.Pool
}

// Get returns a pooled command list with the given length and capacity.
func (p *mgetcmdsPool) Get(length, capacity int) *mgetcmds {
	m := p.sp.Get().(*mgetcmds)
	if cap(m.s) < capacity {
		m.s = make([]Completed, length, capacity)
	} else {
		m.s = m.s[:length]
	}
	return m
}

// Put clears the list and recycles it.
func (p *mgetcmdsPool) Put(m *mgetcmds) {
	if cap(m.s) > 1024 {
		return
	}
	for i := range m.s {
		m.s[i] = Completed{}
	}
	m.s = m.s[:0]
	p.sp.Put(m)
}

var mgetcmdsp = &mgetcmdsPool{sp: sync.Pool{New: func() any { return &mgetcmds{} }}}

type pipeReq struct {
	cmds []Completed
	resp chan []RedisResult
}

// Client is an auto-pipelining client: a background writer goroutine sends
// the queued command slices.
type Client struct {
	queue chan pipeReq
}

// NewClient starts the writer goroutine.
func NewClient(send func(cmd []string) RedisResult) *Client {
	c := &Client{queue: make(chan pipeReq, 64)}
	go func() {
		for req := range c.queue {
			res := make([]RedisResult, len(req.cmds))
			for i, cmd := range req.cmds {
				res[i] = send(cmd.Commands())
			}
			req.resp <- res
		}
	}()
	return c
}

// Set builds a SET command.
func (c *Client) Set(k, v string) Completed { return Completed{cs: []string{"SET", k, v}} }

// DoMulti queues cmds for the writer and waits for the replies or ctx.
func (c *Client) DoMulti(ctx context.Context, cmds ...Completed) []RedisResult {
	req := pipeReq{cmds: cmds, resp: make(chan []RedisResult, 1)}
	c.queue <- req
	select {
	case res := <-req.resp:
		return res
	case <-ctx.Done():
		res := make([]RedisResult, len(cmds))
		for i := range res {
			res[i] = RedisResult{err: ctx.Err(), nonRedis: true}
		}
		return res
	}
}

// MSet sets all kvs, one SET per key, in a single pipeline.
func MSet(client *Client, ctx context.Context, kvs map[string]string) map[string]error {
	if len(kvs) == 0 {
		return make(map[string]error)
	}

	cmds := mgetcmdsp.Get(0, len(kvs))
	for k, v := range kvs {
		cmds.s = append(cmds.s, client.Set(k, v))
	}
	return doMultiSet(client, ctx, cmds)
}

// doMultiSet returns buf to mgetcmdsp only when every result has no
// non-Redis error; otherwise the pipeline writer may still be reading buf.s.
func doMultiSet(cc *Client, ctx context.Context, buf *mgetcmds) (ret map[string]error) {
	cmds := buf.s
	ret = make(map[string]error, len(cmds))
	resps := cc.DoMulti(ctx, cmds...)
	recycle := true
	for i, resp := range resps {
		ret[cmds[i].Commands()[1]] = resp.Error()
		if resp.NonRedisError() != nil {
			recycle = false
		} else {
			PutCompletedForce(cmds[i])
		}
	}
	if recycle {
		mgetcmdsp.Put(buf)
	}
	return ret
}
