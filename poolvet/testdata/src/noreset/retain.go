package noreset

import (
	"bufio"
	"context"
	"io"
	"sync"
)

var writerPool = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 4096) }}

// The pooled writer keeps the caller's writer reachable while it waits in
// the pool (erigontech/erigon#19417). Code that overwrites it at the next
// Get on purpose (fasthttp, grpc, net/http's h2) gets the report too: it is
// true, and Reset(nil) before the Put costs nothing.
func writeAll(w io.Writer, p []byte) error {
	bw := writerPool.Get().(*bufio.Writer)
	bw.Reset(w)
	bw.Write(p)
	err := bw.Flush()
	writerPool.Put(bw) // want `bw goes back to the pool still holding, in the io.Writer given to Reset, what a user was passed`
	return err
}

var writerPool2 = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 4096) }}

// Reset(nil) first, as net/http's putBufioWriter does: fine.
func writeAllFixed(w io.Writer, p []byte) error {
	bw := writerPool2.Get().(*bufio.Writer)
	bw.Reset(w)
	bw.Write(p)
	err := bw.Flush()
	bw.Reset(nil)
	writerPool2.Put(bw)
	return err
}

type message struct {
	ctx  context.Context
	body []byte
	id   int
}

var messagePool = sync.Pool{New: func() any { return new(message) }}

func getMessage(ctx context.Context, body []byte, id int) *message {
	m := messagePool.Get().(*message)
	m.ctx, m.body, m.id = ctx, body, id
	return m
}

// The release helper leaves the request's context attached
// (maximhq/bifrost#4871); the body alone would not be reported.
func releaseMessage(m *message) {
	messagePool.Put(m) // want `m goes back to the pool still holding the context in field ctx \(set at retain.go:48\)`
}

type job struct {
	ctx  context.Context
	body []byte
}

var jobPool = sync.Pool{New: func() any { return new(job) }}

func getJob(ctx context.Context, body []byte) *job {
	j := jobPool.Get().(*job)
	j.ctx, j.body = ctx, body
	return j
}

// Both fields cleared: fine.
func releaseJob(j *job) {
	j.ctx, j.body = nil, nil
	jobPool.Put(j)
}

type counter struct {
	name string
	n    int
}

var counterPool = sync.Pool{New: func() any { return new(counter) }}

// A string and an int are not request-scoped memory: fine.
func count(name string) {
	c := counterPool.Get().(*counter)
	c.name, c.n = name, 0
	c.n++
	counterPool.Put(c)
}

type task struct {
	ctx context.Context
	f   func()
}

func (t *task) zero() { t.ctx, t.f = nil, nil }

var taskPool = sync.Pool{New: func() any { return new(task) }}

func newTask(ctx context.Context, f func()) *task {
	t := taskPool.Get().(*task)
	t.ctx, t.f = ctx, f
	return t
}

// A method clears the context before the Put (bytedance/gopkg's gopool):
// fine.
func (t *task) Recycle() { // want Recycle:`pool:put\(0\)`
	t.zero()
	taskPool.Put(t)
}

type encOption struct {
	flag int
	ctx  context.Context
}

type encState struct {
	ptrs []uintptr
	opt  *encOption
}

var encStatePool = sync.Pool{New: func() any { return &encState{opt: new(encOption)} }}

// The context goes into a sub-object the pooled state points to
// (goccy/go-json#499).
func releaseEncState(s *encState) {
	encStatePool.Put(s) // want `s goes back to the pool still holding the context in field ctx`
}

func marshalCtx(ctx context.Context, v any) int {
	s := encStatePool.Get().(*encState)
	s.opt.ctx = ctx
	n := len(s.ptrs)
	releaseEncState(s)
	return n
}

var encStatePool2 = sync.Pool{New: func() any { return &encState{opt: new(encOption)} }}

// Cleared through the sub-object: silent.
func releaseEncState2(s *encState) {
	s.opt.ctx = nil
	encStatePool2.Put(s)
}

func marshalCtx2(ctx context.Context, v any) int {
	s := encStatePool2.Get().(*encState)
	s.opt.ctx = ctx
	n := len(s.ptrs)
	releaseEncState2(s)
	return n
}

// A constructor keeps the caller's connection twice, once as the interface
// it was given and once asserted to io.Reader; the release helper clears
// the first and forgets the second (cloudwego/kitex#1103).
type conn interface{ Release() error }

type connBuf struct {
	c   conn
	r   io.Reader
	off int
}

var connBufPool = sync.Pool{New: func() any { return new(connBuf) }}

func newConnBuf(c conn) *connBuf {
	b := connBufPool.Get().(*connBuf)
	b.c = c
	if r, ok := c.(io.Reader); ok {
		b.r = r
	}
	return b
}

func (b *connBuf) zero() {
	b.c = nil
	b.off = 0
}

func (b *connBuf) release() error {
	err := b.c.Release()
	b.zero()
	connBufPool.Put(b) // want `b goes back to the pool still holding, in field r, what a user was passed`
	return err
}

// The fixed release clears both: silent.
type connBuf2 struct {
	c conn
	r io.Reader
}

var connBuf2Pool = sync.Pool{New: func() any { return new(connBuf2) }}

func newConnBuf2(c conn) *connBuf2 {
	b := connBuf2Pool.Get().(*connBuf2)
	b.c = c
	b.r = c.(io.Reader)
	return b
}

func (b *connBuf2) release() {
	b.c, b.r = nil, nil
	connBuf2Pool.Put(b)
}
