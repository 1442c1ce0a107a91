// Package bug is the fixed twin of dgrr/http2 commit 97545e4
// (https://github.com/dgrr/http2/commit/97545e42a29f41a59e0c297f7ed69eacac45b80a): the Ctx has an owner.
// The write loop acquires it before reading Request and skips it once RoundTrip has taken it back, and
// RoundTrip takes it back before returning, so the caller's release can no longer race the write loop.
// Check: useafterput (none expected here).
package bug

import (
	"errors"
	"sync"
	"time"
)

type Request struct {
	uri  []byte
	body []byte
}

func (req *Request) SetRequestURI(uri string) { req.uri = append(req.uri[:0], uri...) }
func (req *Request) Body() []byte             { return req.body }
func (req *Request) Reset()                   { req.uri = req.uri[:0]; req.body = req.body[:0] }

type Response struct {
	status int
	body   []byte
}

func (res *Response) Reset() { res.status = 0; res.body = res.body[:0] }

var (
	requestPool  sync.Pool
	responsePool sync.Pool
)

func AcquireRequest() *Request {
	v := requestPool.Get()
	if v == nil {
		return &Request{}
	}
	return v.(*Request)
}

const maxPooledBodySize = 64 << 10

func ReleaseRequest(req *Request) {
	if cap(req.body) > maxPooledBodySize || cap(req.uri) > maxPooledBodySize {
		return
	}
	req.Reset()
	requestPool.Put(req)
}

func AcquireResponse() *Response {
	v := responsePool.Get()
	if v == nil {
		return &Response{}
	}
	return v.(*Response)
}

func ReleaseResponse(res *Response) {
	if cap(res.body) > maxPooledBodySize {
		return
	}
	res.Reset()
	responsePool.Put(res)
}

var ErrRequestCanceled = errors.New("request timed out")

type Ctx struct {
	Request  *Request
	Response *Response
	Err      chan error
	once     sync.Once

	// Request and Response belong to RoundTrip's caller, who releases them as soon as RoundTrip
	// returns: the connection must own the Ctx while it touches either.
	lck  sync.Mutex
	done bool
}

func (ctx *Ctx) resolve(err error) {
	ctx.once.Do(func() { ctx.Err <- err })
}

// acquire takes ownership for the connection; false once RoundTrip has taken the Ctx back.
func (ctx *Ctx) acquire() bool {
	ctx.lck.Lock()
	if ctx.done {
		ctx.lck.Unlock()
		return false
	}
	return true
}

func (ctx *Ctx) release() { ctx.lck.Unlock() }

// takeBack waits until the connection is not using the Ctx and stops it from using it again.
func (ctx *Ctx) takeBack() {
	ctx.lck.Lock()
	ctx.done = true
	ctx.lck.Unlock()
}

type Conn struct {
	out  chan *Ctx
	sent [][]byte
}

func (c *Conn) Write(ctx *Ctx) { c.out <- ctx }

func (c *Conn) writeLoop() {
	for ctx := range c.out {
		err := c.writeRequest(ctx)
		if err != nil {
			ctx.resolve(err)
		}
	}
}

func (c *Conn) writeRequest(ctx *Ctx) error {
	if !ctx.acquire() {
		return nil
	}
	defer ctx.release()

	req := ctx.Request

	hasBody := len(req.Body()) != 0
	frame := append([]byte(nil), req.uri...)
	if hasBody {
		frame = append(frame, req.body...)
	}
	c.sent = append(c.sent, frame)
	return nil
}

type Client struct {
	conn            *Conn
	maxResponseTime time.Duration
}

func (cl *Client) RoundTrip(req *Request, res *Response) error {
	ch := make(chan error, 1)
	ctx := &Ctx{Request: req, Response: res, Err: ch}

	var cancelTimer *time.Timer
	if cl.maxResponseTime > 0 {
		cancelTimer = time.AfterFunc(cl.maxResponseTime, func() {
			ctx.resolve(ErrRequestCanceled)
		})
	}

	cl.conn.Write(ctx)

	err := <-ch
	if cancelTimer != nil {
		cancelTimer.Stop()
	}

	// The write loop may still be part way through this Ctx.
	ctx.takeBack()
	return err
}

func Get(cl *Client, uri string) (int, error) {
	req := AcquireRequest()
	res := AcquireResponse()
	defer ReleaseRequest(req)
	defer ReleaseResponse(res)

	req.SetRequestURI(uri)
	if err := cl.RoundTrip(req, res); err != nil {
		return 0, err
	}
	return res.status, nil
}
