// Source: https://github.com/nite-coder/bifrost/pull/32
// (commit 4dbed3cdda0e40d278d981a87bb9613abfe53403, pkg/gateway/service.go)
//
// Bug: bifrost (an API gateway on cloudwego/hertz) ran the upstream
// selection and proxying of Service.ServeHTTP in a goroutine (safety.Go)
// that captured the pooled *app.RequestContext, and then waited on
// select { case <-ctx.Done(): ... case <-done: }. When the client canceled
// (typically while an upstream target was unavailable and the proxy kept
// retrying) ServeHTTP returned while the goroutine still used c; hertz then
// reset c and put it back into its context pool, so the goroutine went on
// writing into a RequestContext already reused by another request ("race
// condition caused by the reuse of app.RequestContext").
// Fix: run the body synchronously in ServeHTTP (no goroutine, no done
// channel); the ctx.Done() check became a non-blocking select with default.
//
// Check: useafterput (the engine's ctxPool.Put in hertz.go puts c back while
// the goroutine started in Service.ServeHTTP still holds and writes it)
package fixed

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"
)

const (
	UpstreamID                  = "$upstream_id"
	UpstreamDuration            = "$upstream_duration"
	UpstreamResponoseStatusCode = "$upstream_status"
	TargetTimeout               = "$target_timeout"
)

type Proxy interface {
	ServeHTTP(ctx context.Context, c *RequestContext)
}

type Upstream struct {
	ID      string
	proxies []Proxy
	next    int
}

func (u *Upstream) roundRobin() Proxy {
	if len(u.proxies) == 0 {
		return nil
	}
	u.next = (u.next + 1) % len(u.proxies)
	return u.proxies[u.next]
}

type Service struct {
	upstream *Upstream
}

func (svc *Service) ServeHTTP(ctx context.Context, c *RequestContext) {
	defer func() {
		if r := recover(); r != nil {
			slog.ErrorContext(ctx, "service panic recovered", slog.Any("panic", r), slog.String("stack", string(debug.Stack())))
			c.SetStatusCode(500)
			c.Abort()
		}
	}()

	var proxy Proxy
	if svc.upstream != nil {
		c.Set(UpstreamID, svc.upstream.ID)
		proxy = svc.upstream.roundRobin()
	}

	if proxy == nil {
		// no live upstream
		c.SetStatusCode(503)
		return
	}

	startTime := time.Now()
	proxy.ServeHTTP(ctx, c)
	endTime := time.Now()

	dur := endTime.Sub(startTime)
	c.Set(UpstreamDuration, dur)

	// the upstream target timeout and we need to response http status 504 back to client
	if c.GetBool(TargetTimeout) {
		c.Response.SetStatusCode(504)
	} else {
		c.Set(UpstreamResponoseStatusCode, c.Response.StatusCode())
	}

	select {
	case <-ctx.Done():
		// the request is canceled by client
		slog.InfoContext(ctx, "client cancel the request",
			slog.String("full_uri", string(c.Request.RequestURI())),
		)

		// client canceled the request
		c.Response.SetStatusCode(499)
	default:
	}
}

func NewGateway(svc *Service) *Engine {
	return NewEngine(svc.ServeHTTP)
}
