// Package bug reproduces the shape of gohugoio/hugo#12413
// (https://github.com/gohugoio/hugo/pull/12413, commit
// https://github.com/gohugoio/hugo/commit/509ab08c1b140de421c376235faa566f87ea666e
// "markup/goldmark: Fix data race in the hugocontext wrapper"): hugocontext.Wrap
// builds the wrapped shortcode output in a buffer from Hugo's bufferpool, defers
// PutBuffer, and returns buf.Bytes(). The deferred PutBuffer resets the buffer
// and puts it back before the caller (RenderShortcodes) converts the returned
// slice to template.HTML, so another goroutine that takes the same buffer can
// overwrite the bytes first; the race detector caught it in a test run.
//
// Check: useafterput (Wrap returns a view of the pooled buffer's memory while
// the deferred Put sends the buffer back; report at the return).
package bug

import (
	"bytes"
	"html/template"
	"strconv"
	"sync"
)

// --- bufferpool ---

var bufferPool = &sync.Pool{
	New: func() any {
		return &bytes.Buffer{}
	},
}

// GetBuffer returns a buffer from the pool.
func GetBuffer() (buf *bytes.Buffer) {
	return bufferPool.Get().(*bytes.Buffer)
}

// PutBuffer returns a buffer to the pool.
// The buffer is reset before it is put back into circulation.
func PutBuffer(buf *bytes.Buffer) {
	if buf.Cap() > 1<<20 {
		return
	}
	buf.Reset()
	bufferPool.Put(buf)
}

// --- markup/goldmark/hugocontext ---

var (
	prefix                 = []byte("{{__hugo_ctx")
	endDelim               = []byte("}}")
	closingDelimAndNewline = []byte("/}}\n")
)

// Wrap wraps the given byte slice in a Hugo context that is used to find the
// right Page in .RenderShortcodes.
func Wrap(b []byte, pid uint64) []byte {
	buf := GetBuffer()
	defer PutBuffer(buf)
	buf.Write(prefix)
	buf.WriteString(" pid=")
	buf.WriteString(strconv.FormatUint(pid, 10))
	buf.Write(endDelim)
	buf.WriteByte('\n')
	buf.Write(b)
	buf.Write(prefix)
	buf.Write(closingDelimAndNewline)
	return buf.Bytes() // want `useafterput`
}

// --- hugolib ---

type page struct{ pid uint64 }

type pageContentOutput struct {
	p         *page
	items     []string
	inMarkdwn bool
}

func bytesToHTML(b []byte) template.HTML {
	return template.HTML(string(b))
}

func (pco *pageContentOutput) RenderShortcodes() (template.HTML, error) {
	var c []byte
	for _, it := range pco.items {
		c = append(c, []byte(it)...)
	}

	if pco.inMarkdwn {
		// This content will be parsed and rendered by Goldmark. Wrap it in a
		// special Hugo markup to assign the correct Page from the stack.
		c = Wrap(c, pco.p.pid)
	}

	return bytesToHTML(c), nil
}
