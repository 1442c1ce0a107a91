// Package bug reproduces the shape of gofiber/fiber#4374 (https://github.com/gofiber/fiber/pull/4374):
// App.quoteString and App.quoteRawString (used to build the quoted filename of
// Content-Disposition in Attachment/Download) encode into a buffer taken from
// bytebufferpool and convert the result with app.toString, which is a
// zero-copy unsafe conversion unless Config.Immutable is set. quoteString
// puts the buffer back and then returns the string, quoteRawString defers the
// Put; in both cases the returned string aliases pooled memory that the next
// request overwrites (the header of one response shows another's filename).
// The fix copies with string(...) before the buffer is released.
// Check: useafterput (fixed twin: the result is copied with string(...)
// before the buffer is released).
package bug

import (
	"sync"
	"unsafe"
)

// ByteBuffer is a pooled byte buffer (bytebufferpool style).
type ByteBuffer struct {
	B []byte
}

// Reset empties the buffer.
func (b *ByteBuffer) Reset() { b.B = b.B[:0] }

const maxPooledSize = 64 << 10

var bufferPool = sync.Pool{New: func() any { return &ByteBuffer{B: make([]byte, 0, 64)} }}

// Get returns an empty buffer from the pool.
func Get() *ByteBuffer { return bufferPool.Get().(*ByteBuffer) }

// Put returns b to the pool.
func Put(b *ByteBuffer) {
	if cap(b.B) > maxPooledSize {
		return
	}
	b.Reset()
	bufferPool.Put(b)
}

// Config holds the app settings.
type Config struct {
	// Immutable makes toString/toBytes copy instead of aliasing.
	Immutable bool
}

// App is the application.
type App struct {
	config   Config
	toString func([]byte) string
	toBytes  func(string) []byte
}

// New creates an App.
func New(cfg Config) *App {
	app := &App{config: cfg}
	if cfg.Immutable {
		app.toString = func(b []byte) string { return string(b) }
		app.toBytes = func(s string) []byte { return []byte(s) }
	} else {
		app.toString = func(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
		app.toBytes = func(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
	}
	return app
}

// appendQuotedArg percent-encodes src into dst (fasthttp.AppendQuotedArg).
func appendQuotedArg(dst, src []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range src {
		switch {
		case c == ' ':
			dst = append(dst, '+')
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9',
			c == '-', c == '.', c == '_', c == '~':
			dst = append(dst, c)
		default:
			dst = append(dst, '%', hex[c>>4], hex[c&0xf])
		}
	}
	return dst
}

// quoteString escapes special characters using percent-encoding.
func (app *App) quoteString(raw string) string {
	bb := Get()
	quoted := string(appendQuotedArg(bb.B, app.toBytes(raw)))
	Put(bb)
	return quoted
}

// quoteRawString escapes only the characters that need quoting in a
// quoted-string.
func (app *App) quoteRawString(raw string) string {
	const hex = "0123456789ABCDEF"
	bb := Get()
	defer Put(bb)

	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' || c == '"':
			bb.B = append(bb.B, '\\', c)
		case c == '\n':
			bb.B = append(bb.B, '\\', 'n')
		case c == '\r':
			bb.B = append(bb.B, '\\', 'r')
		case c < 0x20 || c == 0x7f:
			bb.B = append(bb.B, '%', hex[c>>4], hex[c&0xf])
		default:
			bb.B = append(bb.B, c)
		}
	}
	return string(bb.B)
}

// Ctx is a request context.
type Ctx struct {
	app     *App
	headers map[string]string
}

// Attachment sets the Content-Disposition header for a download.
func (c *Ctx) Attachment(filename string, ascii bool) {
	var quoted string
	if ascii {
		quoted = c.app.quoteString(filename)
	} else {
		quoted = c.app.quoteRawString(filename)
	}
	c.headers["Content-Disposition"] = `attachment; filename="` + quoted + `"`
}
