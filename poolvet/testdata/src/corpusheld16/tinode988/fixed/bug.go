// Package fixed is tinode/chat#988 after the review: the gzip writer is
// pointed at io.Discard before it goes back to its pool, so it no longer
// keeps the body buffer reachable.
package fixed

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"sync"
)

const maxPooledBody = 64 << 10

var postBodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var gzipWriterPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

type Payload struct {
	To   []string          `json:"to"`
	Data map[string]string `json:"data"`
}

func postMessage(w io.Writer, body *Payload) error {
	buf := postBodyPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() > maxPooledBody {
			return
		}
		buf.Reset()
		postBodyPool.Put(buf)
	}()

	gzw := gzipWriterPool.Get().(*gzip.Writer)
	gzw.Reset(buf)
	err := json.NewEncoder(gzw).Encode(body)
	if closeErr := gzw.Close(); err == nil {
		err = closeErr
	}
	gzw.Reset(io.Discard)
	gzipWriterPool.Put(gzw)
	if err != nil {
		return err
	}

	// The body is written out before the deferred Put runs.
	_, err = w.Write(buf.Bytes())
	return err
}

// Push sends one payload, gzip-compressed, on w.
func Push(w io.Writer, p *Payload) error {
	return postMessage(w, p)
}
