// Package bug reproduces the shape of tinode/chat#988
// (https://github.com/tinode/chat/pull/988, review thread on
// server/push/tnpg/push_tnpg.go): postMessage takes a bytes.Buffer and a
// *gzip.Writer from two sync.Pools, points the writer at the buffer with
// Reset(buf), JSON-encodes the push payload through it, and puts the writer
// back while it still refers to buf. The reviewer: the pooled writer keeps
// buf reachable, so the GC cannot reclaim it; the author then reset the
// writer to io.Discard before the Put. The original then POSTs the body;
// here it is written to an io.Writer before the deferred Put, to keep the
// case to this one bug.
//
// Check: noreset (a pooled gzip.Writer Reset onto a buffer and put back
// still holding that buffer).
package bug

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
	gzipWriterPool.Put(gzw) // want `noreset`
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
