package noreset

import (
	"bytes"
	"compress/gzip"
	"io"
	"sync"
)

var gzRetPool = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// The pooled writer still points at the buffer whose bytes were returned
// (xitongsys/parquet-go#188).
func gzipBytes(p []byte) []byte {
	out := new(bytes.Buffer)
	zw := gzRetPool.Get().(*gzip.Writer)
	zw.Reset(out)
	zw.Write(p)
	zw.Close()
	gzRetPool.Put(zw) // want `zw goes back to the pool still holding, in the io.Writer given to Reset, what a user was passed or returned`
	return out.Bytes()
}

var gzRetPool2 = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// Reset(nil) before the Put: silent.
func gzipBytes2(p []byte) []byte {
	out := new(bytes.Buffer)
	zw := gzRetPool2.Get().(*gzip.Writer)
	zw.Reset(out)
	zw.Write(p)
	zw.Close()
	zw.Reset(nil)
	gzRetPool2.Put(zw)
	return out.Bytes()
}

// The buffer the writer was Reset onto is returned inside a closure that
// reads it, in a request struct (open-telemetry/opentelemetry-go#8196).
type gzRequest struct {
	body func() io.ReadCloser
}

func gzBodyReader(buf []byte) func() io.ReadCloser {
	return func() io.ReadCloser { return io.NopCloser(bytes.NewReader(buf)) }
}

var gzRetPool3 = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

func gzipRequest(p []byte) (gzRequest, error) {
	var req gzRequest
	zw := gzRetPool3.Get().(*gzip.Writer)
	defer gzRetPool3.Put(zw) // want `zw goes back to the pool still holding, in the io.Writer given to Reset, what a user was passed or returned \(set at retainreturn.go:55\)`
	var b bytes.Buffer
	zw.Reset(&b)
	if _, err := zw.Write(p); err != nil {
		return req, err
	}
	if err := zw.Close(); err != nil {
		return req, err
	}
	req.body = gzBodyReader(b.Bytes())
	return req, nil
}

var gzRetPool4 = sync.Pool{New: func() any { return gzip.NewWriter(nil) }}

// The fix: Reset(io.Discard) before the Put; silent.
func gzipRequest2(p []byte) (gzRequest, error) {
	var req gzRequest
	zw := gzRetPool4.Get().(*gzip.Writer)
	defer func() {
		zw.Reset(io.Discard)
		gzRetPool4.Put(zw)
	}()
	var b bytes.Buffer
	zw.Reset(&b)
	if _, err := zw.Write(p); err != nil {
		return req, err
	}
	if err := zw.Close(); err != nil {
		return req, err
	}
	req.body = gzBodyReader(b.Bytes())
	return req, nil
}

// A cache entry that keeps the key its user gave; one taken from the pool
// with the very key being set is put straight back, only looked at
// (Yiling-J/theine-go's setShard): that Put is silent, the entry holds what
// it held when the pool gave it out. The Put after a delete keeps the key
// the user passed in: reported.
type rrEntry struct {
	key   *string
	value []byte
}

var rrEntries = sync.Pool{New: func() any { return new(rrEntry) }}

func rrSet(m map[string]*rrEntry, key *string, v []byte) *rrEntry {
	e := rrEntries.Get().(*rrEntry)
	if e.key == key {
		rrEntries.Put(e)
		e = &rrEntry{}
	}
	e.key = key
	e.value = v
	m[*key] = e
	return e
}

func rrDelete(m map[string]*rrEntry, key string) {
	e := m[key]
	delete(m, key)
	e.value = nil
	rrEntries.Put(e) // want `e goes back to the pool still holding, in field key, what a user was passed or returned`
}
