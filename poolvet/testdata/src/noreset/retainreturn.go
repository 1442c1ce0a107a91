package noreset

import (
	"bytes"
	"compress/gzip"
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
