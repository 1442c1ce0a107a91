// Package fixed is internetarchive/Zeno#541 after the review fix
// (https://github.com/internetarchive/Zeno/pull/541): the duplicate Put on
// the discard path is removed; the buffer goes back once, after its bytes
// were copied out.
package fixed

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
		_, err = io.Copy(io.Discard, io.LimitReader(u.Body, u.maxBytes))
		return err
	}
	return nil
}
