// Package fixed is the fix of k0sproject/rig#350
// (https://github.com/k0sproject/rig/pull/350) as merged: the pair goes back
// to the pool only when its buffer stayed under 64 KiB, emptied first; a
// larger one is left to the garbage collector.
package fixed

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

const maxPooledCap = 64 << 10

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
	if cb.buf.Cap() <= maxPooledCap {
		clear(cb.buf.Bytes())
		cb.buf.Reset()
		compressPool.Put(cb)
	}
	return `$z="` + encoded + `"; Expand $z`
}
