// Package bug is the fixed twin of the gohugoio/hugo Rst bufferpool change
// (reverted in
// https://github.com/gohugoio/hugo/commit/7c125ebb7db8c8af0d48e2141b38d0a78fd74b6e):
// rst2html writes into a bytes.Buffer owned by the call, so the returned
// sub-slice is not shared with any pool.
package bug

import (
	"bytes"
	"log"
	"os/exec"
)

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
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		log.Println(err)
	}

	result := out.Bytes()

	bodyStart := bytes.Index(result, []byte("<body>\n"))
	bodyEnd := bytes.Index(result, []byte("\n</body>"))
	if bodyStart < 0 || bodyEnd < bodyStart+7 {
		return nil
	}

	return result[bodyStart+7 : bodyEnd]
}
