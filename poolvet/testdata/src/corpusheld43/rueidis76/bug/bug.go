// Package bug reproduces the shape of redis/rueidis#76
// (https://github.com/redis/rueidis/pull/76, fix commit
// https://github.com/redis/rueidis/commit/2e7d5bf00ca19595bbd6322d9db6252f189a4bb0):
// commands are built on a *CommandSlice taken from a sync.Pool and the client
// recycles it with cmds.Put right after conn.Do returns. When the caller's
// context expires, pipe.Do stops waiting and returns a context error at once,
// but the command is still sitting in the pipe's queue and the background
// writer goroutine will read its slice later to write it to the socket. The
// client recycled it anyway, so another caller could Get the same slice and
// overwrite it while the writer was still sending it. The fix only recycles
// the command when the result carries no non-Redis error.
// Check: useafterput (the slice goes back to the pool while the pipe still
// holds it and writes it afterwards; report at the Put in singleClient.Do).
package bug

import (
	"context"
	"errors"
	"strings"
	"sync"
)

// ---- internal/cmds ----

var pool = &sync.Pool{New: newCommandSlice}

// CommandSlice is the command container managed by the sync.Pool.
type CommandSlice struct {
	s []string
}

func newCommandSlice() interface{} {
	return &CommandSlice{s: make([]string, 0, 2)}
}

func get() *CommandSlice { return pool.Get().(*CommandSlice) }

// Put recycles the CommandSlice.
func Put(cs *CommandSlice) {
	cs.s = cs.s[:0]
	pool.Put(cs)
}

type Completed struct {
	cs *CommandSlice
	cf uint16
}

func NewCompleted(tokens ...string) Completed {
	c := Completed{cs: get()}
	c.cs.s = append(c.cs.s, tokens...)
	return c
}

func (c *Completed) IsReadOnly() bool            { return c.cf&1 == 1 }
func (c *Completed) Commands() []string          { return c.cs.s }
func (c *Completed) CommandSlice() *CommandSlice { return c.cs }

// ---- pipe ----

type RedisResult struct {
	val string
	err error
}

func newErrResult(err error) RedisResult { return RedisResult{err: err} }

// NonRedisError returns network or context errors, not server replies.
func (r RedisResult) NonRedisError() error { return r.err }

type queued struct {
	cmd Completed
	ch  chan RedisResult
}

type pipe struct {
	queue chan queued
	out   strings.Builder
	mu    sync.Mutex
}

func newPipe() *pipe {
	p := &pipe{queue: make(chan queued, 16)}
	go p._background()
	return p
}

// _background writes queued commands, possibly long after Do returned.
func (p *pipe) _background() {
	for q := range p.queue {
		p.mu.Lock()
		for _, s := range q.cmd.Commands() {
			p.out.WriteString(s)
			p.out.WriteByte(' ')
		}
		p.mu.Unlock()
		q.ch <- RedisResult{val: "OK"}
	}
}

func (p *pipe) Do(ctx context.Context, cmd Completed) (resp RedisResult) {
	if err := ctx.Err(); err != nil {
		return newErrResult(err)
	}
	ch := make(chan RedisResult, 1)
	p.queue <- queued{cmd: cmd, ch: ch}
	select {
	case resp = <-ch:
	case <-ctx.Done():
		resp = newErrResult(ctx.Err())
		go func() { <-ch }()
	}
	return resp
}

// ---- client ----

type singleClient struct {
	conn *pipe
}

func (c *singleClient) isRetryable(err error, ctx context.Context) bool {
	return err != nil && ctx.Err() == nil && !errors.Is(err, context.Canceled)
}

func (c *singleClient) Do(ctx context.Context, cmd Completed) (resp RedisResult) {
retry:
	resp = c.conn.Do(ctx, cmd)
	if cmd.IsReadOnly() && c.isRetryable(resp.NonRedisError(), ctx) {
		goto retry
	}
	Put(cmd.CommandSlice()) // want `useafterput`
	return resp
}
