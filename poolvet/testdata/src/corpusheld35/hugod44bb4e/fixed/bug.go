// Package bug reproduces the shape of gohugoio/hugo commit d44bb4ec0555
// (https://github.com/gohugoio/hugo/commit/d44bb4ec05553b95ef601bf3951e5755b1cbd5a0),
// which reverts 068a77151e27 ("Use bufferpool in Asciidoc handler"): the
// AsciiDoc content handler took its stdout buffer from Hugo's bufferpool,
// scheduled the PutBuffer with defer, and returned out.Bytes(). The deferred
// PutBuffer resets the buffer and hands it back to the pool before the caller
// ever reads the rendered HTML, so the returned slice aliases a buffer that
// the next render reuses. The revert notes that a copy would be needed and
// goes back to a local bytes.Buffer.
// Check: useafterput (the return of out.Bytes(), which escapes memory of a
// buffer that the deferred PutBuffer has returned to the pool).
package bug

import (
	"bytes"
	"log"
	"os/exec"
	"sync"
)

var SummaryDivider = []byte("<!--more-->")

// ---- bufferpool package ----

const maxPooledBufferSize = 1 << 20

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
func PutBuffer(buf *bytes.Buffer) {
	if buf.Cap() > maxPooledBufferSize {
		return
	}
	buf.Reset()
	bufferPool.Put(buf)
}

// ---- helpers/content.go ----

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

// HasAsciidoc returns whether Asciidoc is installed on this computer.
func HasAsciidoc() bool {
	return getAsciidocExecPath() != ""
}

// getAsciidocContent calls asciidoctor or asciidoc as an external helper
// to convert AsciiDoc content to HTML.
func getAsciidocContent(content []byte) []byte {
	cleanContent := bytes.Replace(content, SummaryDivider, []byte(""), 1)

	path := getAsciidocExecPath()
	if path == "" {
		log.Println("asciidoctor / asciidoc not found in $PATH: leaving AsciiDoc content unrendered")
		return content
	}

	log.Println("Rendering with", path, "...")
	cmd := exec.Command(path, "--no-header-footer", "--safe", "-")
	cmd.Stdin = bytes.NewReader(cleanContent)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		log.Println(err)
	}

	return out.Bytes()
}

// RenderBytes renders page content with the external AsciiDoc helper.
func RenderBytes(content []byte) []byte {
	return getAsciidocContent(content)
}
