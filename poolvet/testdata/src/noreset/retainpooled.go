package noreset

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"sync"
)

// A pooled gzip.Writer Reset onto a buffer of another pool and put back
// still wrapping it: the idle writer keeps that buffer reachable
// (tinode/chat#988).
var postBufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var postGzPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

func postJSON(w io.Writer, v any) error {
	buf := postBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			postBufPool.Put(buf)
		}
	}()
	gz := postGzPool.Get().(*gzip.Writer)
	gz.Reset(buf)
	err := json.NewEncoder(gz).Encode(v)
	if cerr := gz.Close(); err == nil {
		err = cerr
	}
	postGzPool.Put(gz) // want `gz goes back to the pool still holding, in the io.Writer given to Reset \(an object of another pool\)`
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// Silent: Reset(io.Discard) before the Put.
var postGzPool2 = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

func postJSONFixed(w io.Writer, v any) error {
	buf := postBufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 64<<10 {
			postBufPool.Put(buf)
		}
	}()
	gz := postGzPool2.Get().(*gzip.Writer)
	gz.Reset(buf)
	err := json.NewEncoder(gz).Encode(v)
	if cerr := gz.Close(); err == nil {
		err = cerr
	}
	gz.Reset(io.Discard)
	postGzPool2.Put(gz)
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}
