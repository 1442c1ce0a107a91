// Package bug is the fixed twin of redis/rueidis#983 (https://github.com/redis/rueidis/pull/983):
// MGetCache takes its command slice from the mgetcachecmdsp pool (a generic wrapper around
// sync.Pool) and gives it back with a deferred Put. The slice is passed on to DoMultiCache,
// which queues the commands for the connection's background pipeline writer and, when the
// context is cancelled or times out, returns error results right away without waiting for the
// writer. MGetCache then returns, the deferred Put recycles the command slice, and the next
// MGetCache overwrites commands the pipeline has not written yet. The fix passes the pooled
// buffer into doMultiCache, which puts it back only after every response arrived without a
// non-Redis (network/context) error.
// Check: useafterput (none expected here).
package bug

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"
)

// ---- internal/util pool wrapper ----

type Container interface {
	Capacity() int
	ResetLen(n int)
}

const maxPooledCapacity = 1 << 16

type Pool[T Container] struct {
	sp sync.Pool
	fn func(capacity int) T
}

func NewPool[T Container](fn func(capacity int) T) *Pool[T] {
	return &Pool[T]{fn: fn}
}

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

func (p *Pool[T]) Put(s T) {
	if s.Capacity() > maxPooledCapacity {
		return
	}
	s.ResetLen(0)
	p.sp.Put(s)
}

// ---- commands ----

type CacheableTTL struct {
	Cmd []string
	TTL time.Duration
}

func CT(cmd []string, ttl time.Duration) CacheableTTL { return CacheableTTL{Cmd: cmd, TTL: ttl} }

type mgetcachecmds struct {
	s []CacheableTTL
}

func (r *mgetcachecmds) Capacity() int { return cap(r.s) }

func (r *mgetcachecmds) ResetLen(n int) {
	clear(r.s)
	r.s = r.s[:n]
}

var mgetcachecmdsp = NewPool(func(capacity int) *mgetcachecmds {
	return &mgetcachecmds{s: make([]CacheableTTL, 0, capacity)}
})

type RedisMessage struct {
	str string
}

type RedisResult struct {
	val RedisMessage
	err error
}

// NonRedisError returns network or context errors, not errors replied by redis.
func (r RedisResult) NonRedisError() error { return r.err }

type Client interface {
	DoMultiCache(ctx context.Context, multi ...CacheableTTL) []RedisResult
}

// ---- pipelined connection ----

type pipeRequest struct {
	cmds []CacheableTTL
	done chan []RedisResult
}

type pipe struct {
	queue chan *pipeRequest
}

// newPipe starts the background writer that serializes queued commands.
func newPipe(w io.Writer) *pipe {
	p := &pipe{queue: make(chan *pipeRequest, 64)}
	go func() {
		for req := range p.queue {
			results := make([]RedisResult, len(req.cmds))
			for i, c := range req.cmds {
				_, err := io.WriteString(w, strings.Join(c.Cmd, " ")+"\r\n")
				results[i] = RedisResult{val: RedisMessage{str: c.Cmd[len(c.Cmd)-1]}, err: err}
			}
			req.done <- results
		}
	}()
	return p
}

// DoMultiCache queues the commands and waits for their results or for ctx.
func (p *pipe) DoMultiCache(ctx context.Context, multi ...CacheableTTL) []RedisResult {
	req := &pipeRequest{cmds: multi, done: make(chan []RedisResult, 1)}
	p.queue <- req
	select {
	case res := <-req.done:
		return res
	case <-ctx.Done():
		res := make([]RedisResult, len(multi))
		for i := range res {
			res[i] = RedisResult{err: ctx.Err()}
		}
		return res
	}
}

type singleClient struct {
	conn *pipe
}

func (c *singleClient) DoMultiCache(ctx context.Context, multi ...CacheableTTL) []RedisResult {
	return c.conn.DoMultiCache(ctx, multi...)
}

// MGetCache consults the client-side caches with multiple keys.
func MGetCache(client Client, ctx context.Context, ttl time.Duration, keys []string) (ret map[string]RedisMessage, err error) {
	if len(keys) == 0 {
		return make(map[string]RedisMessage), nil
	}
	cmds := mgetcachecmdsp.Get(len(keys), len(keys))
	for i := range cmds.s {
		cmds.s[i] = CT([]string{"GET", keys[i]}, ttl)
	}
	return doMultiCache(client, ctx, cmds, keys)
}

// doMultiCache recycles buf only when every command completed; on a non-Redis error the
// pipeline may still hold the commands, so buf is left to the garbage collector.
func doMultiCache(cc Client, ctx context.Context, buf *mgetcachecmds, keys []string) (ret map[string]RedisMessage, err error) {
	ret = make(map[string]RedisMessage, len(keys))
	resps := cc.DoMultiCache(ctx, buf.s...)
	for i, resp := range resps {
		if err := resp.NonRedisError(); err != nil {
			return nil, err
		}
		ret[keys[i]] = resp.val
	}
	mgetcachecmdsp.Put(buf)
	return ret, nil
}
