// Package bug is the fixed twin of gohugoio/hugo#12413
// (https://github.com/gohugoio/hugo/pull/12413, commit
// https://github.com/gohugoio/hugo/commit/509ab08c1b140de421c376235faa566f87ea666e):
// Wrap returns buf.String(), a copy made before the deferred PutBuffer runs,
// and RenderShortcodes uses that string directly.
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
func Wrap(b []byte, pid uint64) string {
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
	return buf.String()
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
		return template.HTML(Wrap(c, pco.p.pid)), nil
	}

	return bytesToHTML(c), nil
}
