// Source: https://github.com/gofiber/fiber/issues/625, fixed by
// https://github.com/gofiber/fiber/pull/630 (commit
// https://github.com/gofiber/fiber/commit/762b00f7d01437e39706e2f241281956cd30923c,
// "fixed #625"). The template-rendering path of the fiber web framework.
// From the PR: "both ctx.Render and logger middleware use bytebufferpool, so
// ctx.Render can't use ctx.SendBytes() because it sets response body without
// copying it."
//
// Bug: Ctx.Render renders the template into a buffer from bytebufferpool,
// defers bytebufferpool.Put(buf), and hands buf.Bytes() to ctx.SendBytes,
// which stores the slice as the response body without copying it
// (fasthttp SetBodyRaw). The response is written after Render returns, when
// the buffer is already back in the pool and may be taken and overwritten by
// the logger middleware or another request: corrupted response bodies.
// Fix: Render sets the body with Response.SetBody, which copies the bytes.
//
// Check: useafterput (the response body keeps buf.Bytes() past the deferred
// bytebufferpool.Put)
package fixed

import (
	"html/template"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// --- trimmed github.com/valyala/bytebufferpool ---

// ByteBuffer provides byte buffer, which can be used for minimizing
// memory allocations.
type ByteBuffer struct {
	B []byte
}

// Bytes returns b.B, i.e. all the bytes accumulated in the buffer.
func (b *ByteBuffer) Bytes() []byte { return b.B }

// Write implements io.Writer - it appends p to ByteBuffer.B
func (b *ByteBuffer) Write(p []byte) (int, error) {
	b.B = append(b.B, p...)
	return len(p), nil
}

// ReadFrom implements io.ReaderFrom.
func (b *ByteBuffer) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, 512)
	var n int64
	for {
		m, err := r.Read(buf)
		b.B = append(b.B, buf[:m]...)
		n += int64(m)
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// Reset makes ByteBuffer.B empty.
func (b *ByteBuffer) Reset() { b.B = b.B[:0] }

var defaultPool = sync.Pool{
	New: func() interface{} { return &ByteBuffer{B: make([]byte, 0, 64)} },
}

// Get returns an empty byte buffer from the pool.
func Get() *ByteBuffer { return defaultPool.Get().(*ByteBuffer) }

// Put returns byte buffer to the pool.
//
// ByteBuffer.B mustn't be touched after returning it to the pool.
// Otherwise data races will occur.
func Put(b *ByteBuffer) {
	b.Reset()
	defaultPool.Put(b)
}

// --- trimmed github.com/valyala/fasthttp ---

// Response represents HTTP response.
type Response struct {
	header map[string]string
	body   []byte
}

// SetBody sets response body.
func (resp *Response) SetBody(body []byte) {
	resp.body = append(resp.body[:0], body...)
}

// SetBodyRaw sets response body, but without copying it.
//
// From this point onward the body argument must not be changed.
func (resp *Response) SetBodyRaw(body []byte) {
	resp.body = body
}

// RequestCtx contains incoming request and manages outgoing response.
type RequestCtx struct {
	Response Response
}

// --- fiber ---

// Views is the interface that wraps the Render function.
type Views interface {
	Load() error
	Render(io.Writer, string, interface{}, ...string) error
}

// Settings holds server settings.
type Settings struct {
	Views Views
}

// App denotes the Fiber application.
type App struct {
	Settings *Settings
}

// Ctx represents the Context which hold the HTTP request and response.
type Ctx struct {
	app      *App
	Fasthttp *RequestCtx
}

// HeaderContentType and MIMETextHTMLCharsetUTF8 are the header and value
// Render sets.
const (
	HeaderContentType       = "Content-Type"
	MIMETextHTMLCharsetUTF8 = "text/html; charset=utf-8"
)

// Set sets the response's HTTP header field to the specified key, value.
func (ctx *Ctx) Set(key string, val string) {
	if ctx.Fasthttp.Response.header == nil {
		ctx.Fasthttp.Response.header = map[string]string{}
	}
	ctx.Fasthttp.Response.header[key] = val
}

// SendBytes sets the HTTP response body for []byte types without copying it.
// From this point onward the body argument must not be changed.
func (ctx *Ctx) SendBytes(body []byte) {
	ctx.Fasthttp.Response.SetBodyRaw(body)
}

// Render a template with data and sends a text/html response.
// We support the following engines: html, amber, handlebars, mustache, pug
func (ctx *Ctx) Render(name string, bind interface{}, layouts ...string) (err error) {
	// Get new buffer from pool
	buf := Get()
	defer Put(buf)

	if ctx.app.Settings.Views != nil {
		// Render template from Views
		if err := ctx.app.Settings.Views.Render(buf, name, bind, layouts...); err != nil {
			return err
		}
	} else {
		// Render raw template using 'name' as filepath if no engine is set
		var tmpl *template.Template
		// Read file
		f, err := os.Open(filepath.Clean(name))
		if err != nil {
			return err
		}
		if _, err = buf.ReadFrom(f); err != nil {
			return err
		}
		if err = f.Close(); err != nil {
			return err
		}
		// Parse template
		if tmpl, err = template.New("").Parse(string(buf.Bytes())); err != nil {
			return err
		}
		buf.Reset()
		// Render template
		if err = tmpl.Execute(buf, bind); err != nil {
			return err
		}
	}
	// Set Content-Type to text/html
	ctx.Set(HeaderContentType, MIMETextHTMLCharsetUTF8)
	// Set rendered template to body
	ctx.Fasthttp.Response.SetBody(buf.Bytes())
	// Return err if exist
	return
}
