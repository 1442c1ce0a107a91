// Package bug reproduces the shape of k0sproject/rig#350
// (https://github.com/k0sproject/rig/pull/350, review thread on
// powershell/powershell.go): CompressedCmd gzips a script into a pooled
// bytes.Buffer (paired with its gzip.Writer) and, as first proposed, always
// put the pair back. One call with a large script leaves a large buffer in
// the pool for good; the review asked to pool only buffers under a size
// bound, as cmd/executor.go already did, and the merged code does.
//
// Check: unbounded (a pooled struct whose *bytes.Buffer field grows with the
// input, put back with no Cap bound).
package bug

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"strings"
	"sync"
)

type compressBuf struct {
	buf *bytes.Buffer
	gz  *gzip.Writer
}

var compressPool = sync.Pool{
	New: func() any {
		buf := &bytes.Buffer{}
		gz, _ := gzip.NewWriterLevel(buf, gzip.BestCompression)
		return &compressBuf{buf: buf, gz: gz}
	},
}

// CompressedCmd returns the script, gzipped and base64-encoded, wrapped in
// a decoder stub.
func CompressedCmd(script string) string {
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		lines = append(lines, l)
	}
	cb := compressPool.Get().(*compressBuf)
	cb.buf.Reset()
	cb.gz.Reset(cb.buf)
	_, _ = cb.gz.Write([]byte(strings.Join(lines, "\n")))
	_ = cb.gz.Close()
	encoded := base64.StdEncoding.EncodeToString(cb.buf.Bytes())
	compressPool.Put(cb) // want `unbounded`
	return `$z="` + encoded + `"; Expand $z`
}
