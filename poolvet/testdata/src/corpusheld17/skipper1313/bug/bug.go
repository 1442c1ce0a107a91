// Package bug reproduces the shape of zalando/skipper#1313
// (https://github.com/zalando/skipper/pull/1313, fixing issue #1312): the
// compress filter registered its cleanup closure, which closes the encoder
// and the pipe, before the deferred Put of the pooled encoder. Deferred
// calls run last-in first-out, so the encoder went back to the pool first
// and was closed afterwards: by then another request could have taken it
// and reset it onto its own output, which the late Close then writes to.
// (putEncoder's Reset(io.Discard) is ours, to keep the case to one check.)
//
// Check: useafterput (a deferred closure registered before the deferred
// Put uses the object after it; the report is expected at that first
// `defer func() {` line).
package bug

import (
	"compress/flate"
	"compress/gzip"
	"io"
	"sync"
)

const bufferSize = 8192

type encoder interface {
	io.WriteCloser
	Reset(io.Writer)
	Flush() error
}

func newEncoder(enc string, level int) (encoder, error) {
	if enc == "gzip" {
		return gzip.NewWriterLevel(nil, level)
	}
	return flate.NewWriter(nil, level)
}

var (
	gzipPool = &sync.Pool{New: func() any {
		e, _ := newEncoder("gzip", flate.BestSpeed)
		return e
	}}
	deflatePool = &sync.Pool{New: func() any {
		e, _ := newEncoder("deflate", flate.BestSpeed)
		return e
	}}
)

func encoderPool(enc string) *sync.Pool {
	if enc == "gzip" {
		return gzipPool
	}
	return deflatePool
}

// putEncoder drops the encoder's reference to its last output and pools it.
func putEncoder(pool *sync.Pool, pe any) {
	pe.(encoder).Reset(io.Discard)
	pool.Put(pe)
}

func encode(out *io.PipeWriter, in io.ReadCloser, enc string, level int) {
	var (
		e   encoder
		err error
	)

	defer func() { // want `useafterput`
		if e != nil {
			e.Close()
		}
		if err == nil {
			err = io.EOF
		}
		out.CloseWithError(err)
		in.Close()
	}()

	if level == flate.BestSpeed {
		pool := encoderPool(enc)
		pe := pool.Get()
		if pe != nil {
			e = pe.(encoder)
			defer putEncoder(pool, pe)
		}
	}

	if e == nil {
		e, err = newEncoder(enc, level)
		if err != nil {
			return
		}
	}

	e.Reset(out)

	b := make([]byte, bufferSize)
	for {
		n, rerr := in.Read(b)
		if n > 0 {
			if _, err = e.Write(b[:n]); err != nil {
				break
			}
			if err = e.Flush(); err != nil {
				break
			}
		}
		if rerr != nil {
			err = rerr
			break
		}
	}
}
