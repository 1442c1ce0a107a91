// Source: https://github.com/cloudfoundry/gorouter/commit/5184f76506b78ffa4c5cd1ead40ae018e6b8160a
// ("Convert value put into sync pool to be a pointer to avoid allocations")
//
// Bug: gorouter's proxy/buffer_pool.go implements httputil.BufferPool for the
// ReverseProxy on top of a sync.Pool, and its Put stored the []byte slice
// value itself in the pool. Converting a slice header to interface{}
// allocates on every Put, defeating the point of pooling the 8 KiB copy
// buffers of every proxied response.
// Fix: store a pointer to the slice (b.pool.Put(&buf)) and dereference the
// *[]byte on Get.
//
// Check: nonpointer (at b.pool.Put(buf) in (*bufferPool).Put: a []byte value
// is put into a sync.Pool).
package bug

import (
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

type bufferPool struct {
	pool *sync.Pool
}

func NewBufferPool() httputil.BufferPool {
	return &bufferPool{
		pool: new(sync.Pool),
	}
}

func (b *bufferPool) Get() []byte {
	buf := b.pool.Get()
	if buf == nil {
		return make([]byte, 8192)
	}
	return buf.([]byte)
}

func (b *bufferPool) Put(buf []byte) {
	b.pool.Put(buf) // want `nonpointer`
}

type proxy struct {
	bufferPool httputil.BufferPool
}

func NewProxy() http.Handler {
	p := &proxy{
		bufferPool: NewBufferPool(),
	}

	rproxy := &httputil.ReverseProxy{
		Director: func(req *http.Request) {
			req.URL = &url.URL{Scheme: "http", Host: req.Host, Path: req.URL.Path}
		},
		FlushInterval: 50 * time.Millisecond,
		BufferPool:    p.bufferPool,
	}
	return rproxy
}
