// Package fixed is the fix of gin-contrib/gzip#101
// (https://github.com/gin-contrib/gzip/pull/101): the deferred cleanup resets
// the writer first and puts it back last.
package fixed

import (
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// ResponseWriter models gin.ResponseWriter.
type ResponseWriter interface {
	io.Writer
	Header() http.Header
	Size() int
}

// Context models the parts of gin.Context the middleware uses.
type Context struct {
	Request *http.Request
	Writer  ResponseWriter
	next    func(*Context)
}

func (c *Context) Next() {
	if c.next != nil {
		c.next(c)
	}
}

func (c *Context) Header(k, v string) { c.Writer.Header().Set(k, v) }

type gzipWriter struct {
	ResponseWriter
	writer *gzip.Writer
}

func (g *gzipWriter) Write(p []byte) (int, error) { return g.writer.Write(p) }

type gzipHandler struct {
	gzPool sync.Pool
}

func newGzipHandler(level int) *gzipHandler {
	return &gzipHandler{
		gzPool: sync.Pool{
			New: func() interface{} {
				gz, _ := gzip.NewWriterLevel(io.Discard, level)
				return gz
			},
		},
	}
}

func (g *gzipHandler) Handle(c *Context) {
	if !strings.Contains(c.Request.Header.Get("Accept-Encoding"), "gzip") {
		c.Next()
		return
	}

	gz := g.gzPool.Get().(*gzip.Writer)
	defer func() {
		gz.Reset(io.Discard)
		g.gzPool.Put(gz)
	}()
	gz.Reset(c.Writer)

	c.Header("Content-Encoding", "gzip")
	c.Writer.Header().Add("Vary", "Accept-Encoding")
	orig := c.Writer
	c.Writer = &gzipWriter{orig, gz}
	defer func() {
		if c.Writer.Size() < 0 {
			// no body: do not write the gzip footer
			gz.Reset(io.Discard)
		}
		_ = gz.Close()
		if c.Writer.Size() > -1 {
			c.Header("Content-Length", strconv.Itoa(c.Writer.Size()))
		}
		c.Writer = orig
	}()
	c.Next()
}
