package useafterput

import (
	"bytes"
	"sync"
	"unsafe"
)

var urlBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

type app struct{}

// toString gives a zero-copy string over its argument.
func (a *app) toString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// A view of a pooled buffer's bytes made by a method of another value and
// returned past the deferred Put (gofiber/fiber#4275).
func fullURL(a *app, scheme, host string) string {
	buf := urlBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer urlBufPool.Put(buf)
	buf.WriteString(scheme)
	buf.WriteString("://")
	buf.WriteString(host)
	return a.toString(buf.Bytes()) // want `returned value shares memory with buf`
}

// The fix: String copies.
func fullURLCopy(scheme, host string) string {
	buf := urlBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer urlBufPool.Put(buf)
	buf.WriteString(scheme)
	buf.WriteString("://")
	buf.WriteString(host)
	return buf.String()
}
