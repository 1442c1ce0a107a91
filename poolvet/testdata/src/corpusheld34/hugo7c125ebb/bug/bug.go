// Package bug reproduces the shape of gohugoio/hugo commit d9bc233f1
// ("Use bufferpool in Rst handler"), reverted as the fix in
// https://github.com/gohugoio/hugo/commit/7c125ebb7db8c8af0d48e2141b38d0a78fd74b6e
// ("This was hasty. We would need to make a copy to use the pool in this
// case."): getRstContent ran rst2html with its stdout going into a pooled
// buffer, deferred PutBuffer, took out.Bytes(), cut the <body> part out of it
// and returned that sub-slice. The deferred PutBuffer hands the buffer to the
// next renderer while the caller still holds the slice, so the page content
// can be overwritten by another page's output.
//
// Check: useafterput (the returned slice aliases the pooled buffer that the
// deferred Put has given back; report at the return).
package bug

import (
	"bytes"
	"log"
	"os/exec"
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

// --- helpers ---

var SummaryDivider = []byte("<!--more-->")

func getRstExecPath() string {
	path, err := exec.LookPath("rst2html")
	if err != nil {
		path, err = exec.LookPath("rst2html.py")
		if err != nil {
			return ""
		}
	}
	return path
}

// getRstContent calls the Python script rst2html as an external helper
// to convert reStructuredText content to HTML.
func getRstContent(content []byte) []byte {
	cleanContent := bytes.Replace(content, SummaryDivider, []byte(""), 1)

	path := getRstExecPath()
	if path == "" {
		log.Println("rst2html / rst2html.py not found in $PATH: Please install.",
			"Leaving reStructuredText content unrendered.")
		return content
	}

	cmd := exec.Command(path, "--leave-comments")
	cmd.Stdin = bytes.NewReader(cleanContent)
	out := GetBuffer()
	defer PutBuffer(out)
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		log.Println(err)
	}

	result := out.Bytes()

	bodyStart := bytes.Index(result, []byte("<body>\n"))
	bodyEnd := bytes.Index(result, []byte("\n</body>"))
	if bodyStart < 0 || bodyEnd < bodyStart+7 {
		return nil
	}

	return result[bodyStart+7 : bodyEnd] // want `useafterput`
}
