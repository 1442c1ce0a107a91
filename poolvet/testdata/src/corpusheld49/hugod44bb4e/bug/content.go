// Source: https://github.com/gohugoio/hugo/commit/d44bb4ec05553b95ef601bf3951e5755b1cbd5a0
// (Revert "Use bufferpool in Asciidoc handler", reverting
// https://github.com/gohugoio/hugo/commit/068a77151e27adb4106e86c407831ad6aa34ad8d:
// "This was hasty. We would need to create a copy to use the pool in this case.")
//
// Bug: getAsciidocContent runs asciidoctor with its stdout going to a buffer
// from Hugo's bufferpool, defers bufferpool.PutBuffer(out) and returns
// out.Bytes(). PutBuffer resets the buffer and puts it back in the pool as
// the function returns, so the rendered page content the caller gets is the
// backing array of a pooled buffer that the next render overwrites.
// Fix: the commit was reverted; the handler writes to its own bytes.Buffer.
//
// Check: useafterput (the return of out.Bytes() past the deferred PutBuffer)
package bug

import (
	"bytes"
	"log"
	"os/exec"
	"sync"
)

// --- bufferpool/bufpool.go ---

var bufferPool = &sync.Pool{
	New: func() interface{} {
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
	buf.Reset()
	bufferPool.Put(buf)
}

// --- helpers/content.go ---

// SummaryDivider denotes where content summarization should end. The default is "<!--more-->".
var SummaryDivider = []byte("<!--more-->")

// RenderingContext holds contextual information, like content and configuration,
// for a given content rendering.
type RenderingContext struct {
	Content    []byte
	PageFmt    string
	DocumentID string
}

// RenderBytes renders a []byte.
func RenderBytes(ctx *RenderingContext) []byte {
	switch ctx.PageFmt {
	default:
		return ctx.Content
	case "asciidoc":
		return getAsciidocContent(ctx.Content)
	}
}

func getAsciidocExecPath() string {
	path, err := exec.LookPath("asciidoctor")
	if err != nil {
		path, err = exec.LookPath("asciidoc")
		if err != nil {
			return ""
		}
	}
	return path
}

// HasAsciidoc returns whether Asciidoctor or Asciidoc is installed on this computer.
func HasAsciidoc() bool {
	return getAsciidocExecPath() != ""
}

// getAsciidocContent calls asciidoctor or asciidoc as an external helper
// to convert AsciiDoc content to HTML.
func getAsciidocContent(content []byte) []byte {
	cleanContent := bytes.Replace(content, SummaryDivider, []byte(""), 1)

	path := getAsciidocExecPath()
	if path == "" {
		log.Println("asciidoctor / asciidoc not found in $PATH: Please install.\n",
			"                 Leaving AsciiDoc content unrendered.")
		return content
	}

	log.Println("Rendering with", path, "...")
	cmd := exec.Command(path, "--no-header-footer", "--safe", "-")
	cmd.Stdin = bytes.NewReader(cleanContent)
	out := GetBuffer()
	defer PutBuffer(out)
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		log.Println(err)
	}

	return out.Bytes() // want `useafterput`
}
