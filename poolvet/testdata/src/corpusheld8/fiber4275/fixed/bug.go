// Package fixed is the fixed twin of gofiber/fiber#4275
// (https://github.com/gofiber/fiber/pull/4275): Ctx.FullURL built the URL in
// a pooled byte buffer, released the buffer on the way out, and returned a
// zero-copy string viewing the buffer's bytes. The next request that took the
// buffer from the pool rewrote the memory under the string the caller kept.
//
// Fix (as in the PR): return buf.String(), which copies, instead of the
// zero-copy view.
package fixed

import (
	"bytes"
	"sync"
	"unsafe"
)

const maxPooledBuf = 64 << 10

var urlBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func acquireBuffer() *bytes.Buffer {
	b := urlBufPool.Get().(*bytes.Buffer)
	b.Reset()
	return b
}

// releaseBuffer drops oversized buffers and recycles the others.
func releaseBuffer(b *bytes.Buffer) {
	if b.Cap() > maxPooledBuf {
		return
	}
	b.Reset()
	urlBufPool.Put(b)
}

type App struct{}

// toString views b as a string without copying it.
func (app *App) toString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

type Ctx struct {
	app    *App
	scheme string
	host   string
	uri    string
}

// FullURL returns scheme://host/uri of the current request.
func (c *Ctx) FullURL() string {
	buf := acquireBuffer()
	defer releaseBuffer(buf)

	buf.WriteString(c.scheme)
	buf.WriteString("://")
	buf.WriteString(c.host)
	buf.WriteString(c.uri)

	return buf.String() // copies the bytes out before the release
}
