// Package bug reproduces the shape of dgrr/http2 commit 97545e4 "Give the client a conformance suite, and fix
// what it found" (https://github.com/dgrr/http2/commit/97545e42a29f41a59e0c297f7ed69eacac45b80a). The HTTP/2
// client's RoundTrip wraps the caller's fasthttp-style pooled Request/Response in a Ctx, queues it to the
// connection's write loop and waits for the result; with MaxResponseTime set, a timer resolves the Ctx with
// ErrRequestCanceled and RoundTrip returns. The caller then releases Request and Response to their pools
// (defer ReleaseRequest), but the Ctx may still sit in the write queue: the write loop later reads
// ctx.Request, a Request that is back in the pool (the race detector saw the pooled RequestHeader written
// while the write loop read it). The fix gives the Ctx an owner: the loops acquire it before touching
// Request/Response and RoundTrip takes it back before returning, after which the loops skip it.
// Check: useafterput (the write loop reads a Request its caller already released; reported at that read).
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
}

func (ctx *Ctx) resolve(err error) {
	ctx.once.Do(func() { ctx.Err <- err })
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
	req := ctx.Request

	hasBody := len(req.Body()) != 0 // want `useafterput`
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
