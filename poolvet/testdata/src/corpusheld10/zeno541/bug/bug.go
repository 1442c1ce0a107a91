// Package bug reproduces the shape of a double Put found in
// internetarchive/Zeno#541 (https://github.com/internetarchive/Zeno/pull/541,
// review thread on internal/pkg/archiver/general/body.go): processBody took a
// sniffing buffer from mimeDetectBufPool, copied what it read into the spooled
// body and put the buffer back, then, on the path that discards the rest of
// the body, put the same buffer back a second time. Two later Gets can then
// hand the same buffer to two goroutines.
//
// Check: doubleput (the same pooled *[]byte is Put twice on one path: once
// after its bytes are copied out, again before the body is discarded).
package bug

import (
	"bytes"
	"io"
	"sync"
)

const sniffLen = 3072

var mimeDetectBufPool = sync.Pool{New: func() any {
	b := make([]byte, sniffLen)
	return &b
}}

type URL struct {
	Body     io.Reader
	MIME     string
	Spooled  *bytes.Reader
	Discard  bool
	maxBytes int64
}

func detect(head []byte) string {
	if bytes.HasPrefix(head, []byte("<html")) || bytes.HasPrefix(head, []byte("<!DOCTYPE")) {
		return "text/html"
	}
	return "application/octet-stream"
}

func processBody(u *URL) error {
	bp := mimeDetectBufPool.Get().(*[]byte)
	buffer := *bp

	n, err := io.ReadFull(u.Body, buffer)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		mimeDetectBufPool.Put(bp)
		return err
	}
	head := append([]byte(nil), buffer[:n]...)
	u.MIME = detect(head)
	u.Spooled = bytes.NewReader(head)
	mimeDetectBufPool.Put(bp)

	if u.Discard {
		// Return buffer to pool before discarding body
		mimeDetectBufPool.Put(bp) // want `doubleput`
		_, err = io.Copy(io.Discard, io.LimitReader(u.Body, u.maxBytes))
		return err
	}
	return nil
}
