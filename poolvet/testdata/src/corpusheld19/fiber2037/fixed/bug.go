// Package bug reproduces the shape of gofiber/fiber#2037 (https://github.com/gofiber/fiber/pull/2037):
// the fasthttp-style client Agent is acquired from agentPool and Bytes()
// defers a.release(), which (unless the agent is marked reusable) resets the
// agent and puts it back into agentPool via ReleaseAgent. Struct() and
// String() were written on top of Bytes(), so by the time Struct() reads
// a.jsonDecoder to unmarshal the body, the agent has already gone back to the
// pool and may be in use by another request. The fix moved the work into an
// unexported bytes() and made each public entry point defer a.release()
// itself, so the release happens only after the last use of the agent.
// Check: useafterput (fixed twin: every public entry point defers the
// release itself and works through the unexported bytes()).
package bug

import (
	"bytes"
	"encoding/json"
	"errors"
	"sync"
)

// Request is an outgoing request.
type Request struct {
	uri string
}

// Reset clears the request.
func (r *Request) Reset() { r.uri = "" }

// Response is a pooled response.
type Response struct {
	status int
	body   bytes.Buffer
}

// StatusCode returns the status.
func (r *Response) StatusCode() int { return r.status }

// Body returns the body bytes; only valid until ReleaseResponse.
func (r *Response) Body() []byte { return r.body.Bytes() }

// Reset clears the response.
func (r *Response) Reset() {
	r.status = 0
	r.body.Reset()
}

var responsePool = sync.Pool{New: func() any { return &Response{} }}

// AcquireResponse takes a response from the pool.
func AcquireResponse() *Response { return responsePool.Get().(*Response) }

// ReleaseResponse returns resp to the pool.
func ReleaseResponse(resp *Response) {
	resp.Reset()
	responsePool.Put(resp)
}

// HostClient performs requests.
type HostClient struct {
	Do func(req *Request, resp *Response) error
}

// JSONUnmarshal decodes JSON.
type JSONUnmarshal func(data []byte, v any) error

// Agent is a pooled request builder.
type Agent struct {
	*HostClient

	req         *Request
	resp        *Response
	dest        []byte
	errs        []error
	reuse       bool
	jsonDecoder JSONUnmarshal
}

var agentPool = sync.Pool{New: func() any { return &Agent{req: &Request{}} }}

// AcquireAgent takes an agent from the pool.
func AcquireAgent() *Agent {
	a := agentPool.Get().(*Agent)
	a.jsonDecoder = json.Unmarshal
	return a
}

// ReleaseAgent resets a and returns it to the pool.
func ReleaseAgent(a *Agent) {
	a.reset()
	agentPool.Put(a)
}

func (a *Agent) reset() {
	a.HostClient = nil
	a.req.Reset()
	a.resp = nil
	a.dest = nil
	a.errs = a.errs[:0]
	a.reuse = false
	a.jsonDecoder = nil
}

// Reuse keeps the agent alive after Bytes/String/Struct.
func (a *Agent) Reuse() *Agent {
	a.reuse = true
	return a
}

func (a *Agent) release() {
	if !a.reuse {
		ReleaseAgent(a)
	} else {
		a.errs = a.errs[:0]
	}
}

// Bytes performs the request and returns status, body and errors.
// The agent goes back to the pool when Bytes returns.
func (a *Agent) Bytes() (code int, body []byte, errs []error) {
	defer a.release()
	return a.bytes()
}

func (a *Agent) bytes() (code int, body []byte, errs []error) {
	if errs = append(errs, a.errs...); len(errs) > 0 {
		return
	}

	var (
		req     = a.req
		resp    *Response
		nilResp bool
	)
	if a.resp == nil {
		resp = AcquireResponse()
		nilResp = true
	} else {
		resp = a.resp
	}

	defer func() {
		if len(errs) == 0 {
			code = resp.StatusCode()
		}
		body = append(a.dest, resp.Body()...)
		if nilResp {
			ReleaseResponse(resp)
		}
	}()

	if a.HostClient == nil {
		errs = append(errs, errors.New("no host client"))
		return
	}
	if err := a.HostClient.Do(req, resp); err != nil {
		errs = append(errs, err)
	}
	return
}

// String returns the body as a string.
func (a *Agent) String() (int, string, []error) {
	defer a.release()
	code, body, errs := a.bytes()
	return code, string(body), errs
}

// Struct unmarshals the body into v.
func (a *Agent) Struct(v any) (code int, body []byte, errs []error) {
	defer a.release()
	if code, body, errs = a.bytes(); len(errs) > 0 {
		return
	}

	if err := a.jsonDecoder(body, v); err != nil {
		errs = append(errs, err)
	}

	return
}
